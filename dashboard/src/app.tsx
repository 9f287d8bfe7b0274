// The dashboard: the sign-in page until a key is accepted, then the signed-in pages around it.
import { useMemo, useState } from "preact/hooks";
import { Layout } from "./components/layout.js";
import { useRoute } from "./lib/router.js";
import { SignInPage } from "./pages/sign-in.js";
import { PageFor } from "./routes.js";
import { clientFor, type Session, SessionContext } from "./session/session.js";
import { forgetKey, storedKey, storeKey } from "./session/stored-key.js";

export function App() {
  const [apiKey, setApiKey] = useState(storedKey);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const session = useMemo<Session | null>(
    () =>
      apiKey === null
        ? null
        : {
            client: clientFor(apiKey),
            clientOver: (fetchFunction) => clientFor(apiKey, fetchFunction),
            signOut(reason) {
              forgetKey();
              setNotice(reason ?? null);
              setApiKey(null);
            },
          },
    [apiKey],
  );
  if (session === null) {
    const signIn = (key: string) => {
      storeKey(key);
      setNotice(null);
      setApiKey(key);
    };
    return <SignInPage notice={notice} onSignedIn={signIn} />;
  }
  return (
    <SessionContext.Provider value={session}>
      <Layout route={route}>
        <PageFor route={route} />
      </Layout>
    </SessionContext.Provider>
  );
}
