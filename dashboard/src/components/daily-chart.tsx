// The credits spent on each of the last 14 days, as bars drawn in SVG (no inline styles, so the CSP holds),
// each day's figure written above its bar.
import { formatNumber } from "../lib/format.js";

interface Day {
  readonly date: string;
  readonly credits: number;
}

const width = 560;
const height = 160;
const labelSpace = 22;
/** Room above the tallest bar for its figure. */
const valueSpace = 18;

export function DailyChart({ days }: { days: readonly Day[] }) {
  const most = Math.max(1, ...days.map((day) => day.credits));
  const slot = width / Math.max(1, days.length);
  const total = days.reduce((sum, day) => sum + day.credits, 0);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 ${-valueSpace} ${width} ${height + labelSpace + valueSpace}`}
        role="img"
        aria-label={`Credits spent per day over the last ${days.length} days: ${formatNumber(total)} in all.`}
      >
        {days.map((day, index) => {
          const barHeight = Math.round((day.credits / most) * height);
          return (
            <g key={day.date}>
              <title>{`${day.date}: ${formatNumber(day.credits)} credits`}</title>
              <rect
                class="bar"
                x={index * slot + slot * 0.15}
                y={height - barHeight}
                width={slot * 0.7}
                height={Math.max(barHeight, day.credits > 0 ? 2 : 1)}
              />
              {day.credits > 0 && (
                <text
                  class="value"
                  x={index * slot + slot / 2}
                  y={height - barHeight - 5}
                  text-anchor="middle"
                >
                  {formatNumber(day.credits)}
                </text>
              )}
              {/* Every other day is named, ending with today's. */}
              {(days.length - 1 - index) % 2 === 0 && (
                <text class="axis" x={index * slot + slot / 2} y={height + 16} text-anchor="middle">
                  {day.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>Credits spent per day (UTC days), the last 14 days.</figcaption>
    </figure>
  );
}
