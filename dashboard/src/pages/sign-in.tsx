// Signing in: the user's API key, its shape checked here (with a message about the key) and then the key
// itself with GET /v1/usage before it is kept for the session.
import { useState } from "preact/hooks";
import { ErrorMessage } from "../components/error-message.js";
import { keyShapeProblem } from "../session/key-shape.js";
import { clientFor } from "../session/session.js";

interface SignInProps {
  /** Why the user is here again (a refused key), shown above the form. */
  readonly notice: string | null;
  onSignedIn(apiKey: string): void;
}

export function SignInPage({ notice, onSignedIn }: SignInProps) {
  const [apiKey, setApiKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = apiKey.trim();
    const problem = keyShapeProblem(key);
    if (problem !== null) {
      setError(new Error(problem));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await clientFor(key).usage.get();
      onSignedIn(key);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  /** An error shown goes once the key is edited into a key's shape; a shapeless key keeps its message current. */
  const change = (value: string) => {
    setApiKey(value);
    if (error !== null) setError(value.trim() === "" ? null : errorOfShape(value.trim()));
  };
  return (
    <main class="sign-in" id="main">
      <h1>vidrows dashboard</h1>
      <p>
        Sign in with one of your workspace's API keys. It is kept in this tab only and forgotten when you
        close it.
      </p>
      {notice && (
        <p class="notice" role="alert">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={apiKey}
          onInput={(event) => change(event.currentTarget.value)}
          aria-invalid={error !== null}
          aria-describedby={error ? "sign-in-error" : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <ErrorMessage error={error} id="sign-in-error" />
    </main>
  );
}

function errorOfShape(key: string): Error | null {
  const problem = keyShapeProblem(key);
  return problem === null ? null : new Error(problem);
}
