// The rows of a job, once taken: a table (each row's quote on demand, values the quote does not hold
// marked) and CSV and JSON downloads (each video's outcome is in the videos table).
import type { SettledJob } from "@vidrows/client";
import { formatVideoTime } from "../lib/format.js";
import { download, rowsAlreadyTaken, rowsTable, toCsv, toJson, type TableRow } from "../lib/rows-export.js";
import { Empty } from "./loading.js";
import { TableScroll } from "./table-scroll.js";

/** Where in its video a row came from: a link that opens the video there, named by the span's times. */
function SourceLink({ row }: { row: TableRow }) {
  if (row.source === undefined) return null;
  const { start_seconds: start, end_seconds: end, url } = row.source;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      title={`Open ${row.videoId} at ${formatVideoTime(start)} (the row was drawn from ${formatVideoTime(start)} to ${formatVideoTime(end)})`}
    >
      {formatVideoTime(start)}–{formatVideoTime(end)}
    </a>
  );
}

/** What the transcript said where the row came from, shown when asked for. */
function SourceQuote({ row }: { row: TableRow }) {
  const quote = row.source?.quote;
  if (!quote) return null;
  return (
    <details class="quote">
      <summary>Quote</summary>
      <blockquote>{quote}</blockquote>
    </details>
  );
}

/** A cell, marked when its value is not in the row's quote: the model may have written it unprompted. */
function RowCell({ row, column }: { row: TableRow; column: string }) {
  const text = String(row.cells[column] ?? "");
  if (!row.source?.unverified.includes(column)) return <td data-label={column}>{text}</td>;
  return (
    <td
      data-label={column}
      class="unverified"
      title="Not in the quote: the transcript may not say this. Check it in the video."
    >
      {text} <span class="unverified-mark">(not in quote)</span>
    </td>
  );
}

export function JobRows({ job }: { job: SettledJob }) {
  const table = rowsTable(job);
  const taken = rowsAlreadyTaken(job);
  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title">Rows</h2>
      {job.rows_held ? (
        <p class="notice" role="status">
          Another read is receiving the rows of this job right now. They are not handed over yet and come back
          if that read does not get them: reload this page in a moment to take them.
        </p>
      ) : taken ? (
        <p class="notice" role="status">
          The rows of this job were already taken: the server handed them over once and then deleted them.
          Nobody can get them again, neither this dashboard nor any API key of the workspace.
        </p>
      ) : (
        <>
          <p class="warning">
            These rows are now deleted on the server: download them before you leave this page.
          </p>
          <div class="actions">
            <button type="button" onClick={() => download(`${job.job_id}.csv`, "text/csv", toCsv(table))}>
              Download CSV
            </button>
            <button
              type="button"
              onClick={() => download(`${job.job_id}.json`, "application/json", toJson(job))}
            >
              Download JSON
            </button>
          </div>
          {table.rows.length === 0 ? (
            <Empty>The videos gave no rows.</Empty>
          ) : (
            <TableScroll label="Rows">
              <table class="rows stack">
                <thead>
                  <tr>
                    <th scope="col">Video</th>
                    {table.columns.map((column) => (
                      <th scope="col" key={column}>
                        {column}
                      </th>
                    ))}
                    <th scope="col">Source</th>
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((row, index) => (
                    <tr key={index}>
                      <td data-label="Video">{row.videoId}</td>
                      {table.columns.map((column) => (
                        <RowCell key={column} row={row} column={column} />
                      ))}
                      <td data-label="Source">
                        <SourceLink row={row} />
                        <SourceQuote row={row} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </>
      )}
    </section>
  );
}
