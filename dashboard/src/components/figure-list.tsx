// Labelled figures (a <dl>): what each number is, next to it, for eyes and screen readers alike.
import type { ComponentChildren } from "preact";

export function FigureList({ figures }: { figures: readonly [string, ComponentChildren][] }) {
  return (
    <dl class="figures">
      {figures.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
