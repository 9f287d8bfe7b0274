// A link to one of the dashboard's routes: a real <a href>, followed without reloading the page.
import type { ComponentChildren } from "preact";
import { hrefFor, navigate } from "../lib/router.js";

interface LinkProps {
  readonly to: string;
  readonly children: ComponentChildren;
  readonly class?: string;
  readonly current?: boolean;
}

export function Link({ to, children, class: className, current }: LinkProps) {
  const follow = (event: MouseEvent) => {
    // New tabs and windows are the browser's business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={hrefFor(to)} onClick={follow} class={className} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  );
}
