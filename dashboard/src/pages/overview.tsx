// Overview: the plan, credits and the cycle, the hard cap, the daily spend, jobs by state, failures by code.
import { DailyChart } from "../components/daily-chart.js";
import { ErrorMessage } from "../components/error-message.js";
import { FigureList } from "../components/figure-list.js";
import { HardCapForm } from "../components/hard-cap-form.js";
import { Loading } from "../components/loading.js";
import { RateLimitStatus } from "../components/rate-limit-status.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { browserTimeZone, formatNumber } from "../lib/format.js";
import { useApi } from "../lib/use-api.js";

export function OverviewPage() {
  const usage = useApi((client, signal) => client.usage.get({ signal }), []);
  const data = usage.data;
  return (
    <>
      <h1>Overview</h1>
      <ErrorMessage error={usage.error} />
      {!data && usage.loading && <Loading what="usage" />}
      {data && (
        <div class="cards">
          <section class="card" aria-labelledby="plan-title">
            <h2 id="plan-title">Plan</h2>
            <FigureList
              figures={[
                ["Plan", data.plan.name],
                ["Requests per minute", formatNumber(data.plan.requests_per_minute)],
              ]}
            />
            <RateLimitStatus />
          </section>
          <section class="card" aria-labelledby="credits-title">
            <h2 id="credits-title">Credits</h2>
            <FigureList
              figures={[
                ["Balance", formatNumber(data.credits.balance)],
                ["Used this cycle", formatNumber(data.credits.used_this_cycle)],
                ["Cycle allowance", formatNumber(data.credits.cycle_allowance)],
                ["Cycle started", <Timestamp value={data.cycle.started_at} />],
                ["Cycle ends", <Timestamp value={data.cycle.ends_at} />],
              ]}
            />
            <label for="cycle-use">Used of the cycle's allowance</label>
            <progress
              id="cycle-use"
              max={Math.max(1, data.credits.cycle_allowance)}
              value={Math.min(data.credits.used_this_cycle, data.credits.cycle_allowance)}
            />
            <p class="hint">
              {formatNumber(data.credits.used_this_cycle)} of {formatNumber(data.credits.cycle_allowance)}{" "}
              credits used.
            </p>
            <p class="hint">Times are in your time zone ({browserTimeZone()}).</p>
          </section>
          <section class="card" aria-labelledby="cap-title">
            <h2 id="cap-title">Credit ceiling</h2>
            <p>
              {data.credits.hard_cap === null
                ? "No hard cap: jobs may use credits up to the balance."
                : `Jobs stop using credits at ${formatNumber(data.credits.hard_cap)} in a cycle.`}
            </p>
            <HardCapForm hardCap={data.credits.hard_cap} onSaved={usage.replace} />
          </section>
          <section class="card wide" aria-labelledby="daily-title">
            <h2 id="daily-title">Daily spend</h2>
            <DailyChart days={data.daily} />
          </section>
          <section class="card" aria-labelledby="jobs-title">
            <h2 id="jobs-title">Jobs</h2>
            <FigureList
              figures={[
                ["Queued", formatNumber(data.jobs.queued)],
                ["Processing", formatNumber(data.jobs.processing)],
                ["Done", formatNumber(data.jobs.done)],
                ["Failed", formatNumber(data.jobs.failed)],
                ["Total", formatNumber(data.jobs.total)],
                ["Videos processed", formatNumber(data.videos_processed)],
              ]}
            />
          </section>
          <section class="card" aria-labelledby="failures-title">
            <h2 id="failures-title">Failures by code</h2>
            <FailuresByCode failures={data.failures_by_code} />
          </section>
        </div>
      )}
    </>
  );
}

function FailuresByCode({ failures }: { failures: Record<string, number> }) {
  const entries = Object.entries(failures).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return <p class="empty">No failed videos.</p>;
  return (
    <TableScroll label="Failures by code">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Videos</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([code, count]) => (
            <tr key={code}>
              <td data-label="Code">
                <code>{code}</code>
              </td>
              <td data-label="Videos">{formatNumber(count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
