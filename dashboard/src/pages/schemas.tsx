// Schemas: every saved schema at its latest version.
import { ErrorMessage } from "../components/error-message.js";
import { Link } from "../components/link.js";
import { Empty, Loading } from "../components/loading.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { useApi } from "../lib/use-api.js";

export function SchemasPage() {
  const schemas = useApi((client, signal) => client.schemas.list({ signal }), []);
  const list = schemas.data?.data;
  return (
    <>
      <div class="heading">
        <h1>Schemas</h1>
        <Link to="/schemas/new" class="button">
          Create schema
        </Link>
      </div>
      <ErrorMessage error={schemas.error} />
      {!list && schemas.loading && <Loading what="schemas" />}
      {list && list.length === 0 && (
        <Empty>No saved schemas yet. A saved schema can be named by jobs as schema_id.</Empty>
      )}
      {list && list.length > 0 && (
        <TableScroll label="Schemas">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Version</th>
                <th scope="col">Description</th>
                <th scope="col">Published</th>
              </tr>
            </thead>
            <tbody>
              {list.map((schema) => (
                <tr key={schema.id}>
                  <td data-label="Label">
                    <Link to={`/schemas/${encodeURIComponent(schema.id)}`}>{schema.label}</Link>
                  </td>
                  <td data-label="Version">{schema.version}</td>
                  <td data-label="Description">{schema.description}</td>
                  <td data-label="Published">
                    <Timestamp value={schema.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
