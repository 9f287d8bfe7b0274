// Which page draws which route under /dashboard.
import { OverviewPage } from "./pages/overview.js";
import { JobsPage } from "./pages/jobs.js";
import { JobPage } from "./pages/job.js";
import { NewJobPage } from "./pages/new-job.js";
import { SchemasPage } from "./pages/schemas.js";
import { NewSchemaPage } from "./pages/new-schema.js";
import { SchemaPage } from "./pages/schema.js";
import { KeysPage } from "./pages/keys.js";
import { WebhooksPage } from "./pages/webhooks.js";
import { WebhookPage } from "./pages/webhook.js";
import { Link } from "./components/link.js";

export function PageFor({ route }: { route: string }) {
  const [, section, id] = route.split("/").map(decodeURIComponent);
  if (route === "/") return <OverviewPage />;
  if (section === "jobs" && id === "new") return <NewJobPage />;
  if (section === "jobs") return id ? <JobPage jobId={id} key={id} /> : <JobsPage />;
  if (section === "schemas" && id === "new") return <NewSchemaPage />;
  if (section === "schemas") return id ? <SchemaPage schemaId={id} key={id} /> : <SchemasPage />;
  if (section === "keys" && !id) return <KeysPage />;
  if (section === "webhooks") return id ? <WebhookPage endpointId={id} key={id} /> : <WebhooksPage />;
  return (
    <>
      <h1>Page not found</h1>
      <p>
        The dashboard has no page at this address. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}
