// A saved schema: every version, oldest first, and publishing the next one.
import { ErrorMessage } from "../components/error-message.js";
import { Link } from "../components/link.js";
import { Loading } from "../components/loading.js";
import { PublishVersion } from "../components/publish-version.js";
import { SchemaTable } from "../components/schema-table.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { useApi } from "../lib/use-api.js";

export function SchemaPage({ schemaId }: { schemaId: string }) {
  const schema = useApi((client, signal) => client.schemas.get(schemaId, { signal }), [schemaId]);
  const data = schema.data;
  return (
    <>
      <p class="crumbs">
        <Link to="/schemas">Schemas</Link>
      </p>
      <h1>{data ? data.name : "Schema"}</h1>
      <ErrorMessage error={schema.error} />
      {!data && schema.loading && <Loading what="the schema" />}
      {data && (
        <>
          <p>
            Latest version: <strong>{data.label}</strong>. Jobs name it as <code>schema_id</code>{" "}
            <code>{data.id}</code>.
          </p>
          {data.description && <p>{data.description}</p>}
          <section aria-labelledby="versions-title">
            <h2 id="versions-title">Versions</h2>
            <ol class="versions">
              {[...data.versions].reverse().map((version) => (
                <li key={version.version}>
                  <h3>{version.label}</h3>
                  <p class="hint">
                    Published <Timestamp value={version.created_at} />
                    {version.description ? ` — ${version.description}` : ""}
                  </p>
                  <TableScroll label={`Columns of ${version.label}`}>
                    <SchemaTable schema={version.schema} label={`Columns of ${version.label}`} />
                  </TableScroll>
                </li>
              ))}
            </ol>
          </section>
          <PublishVersion schemaId={data.id} latest={data.schema} onPublished={schema.reload} />
        </>
      )}
    </>
  );
}
