// A wide table in a region that scrolls sideways on a narrow screen, reachable by keyboard.
import type { ComponentChildren } from "preact";

export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
