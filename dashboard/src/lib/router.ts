// Client-side routes under /dashboard: the current path, and moving to another without a page load.
import { useEffect, useState } from "preact/hooks";

export const basePath = "/dashboard";
const moved = "vidrows:navigate";

/** The path after /dashboard ("/", "/jobs/job_1", ...). */
export function currentRoute(): string {
  const path = window.location.pathname;
  const rest = path.startsWith(basePath) ? path.slice(basePath.length) : path;
  return rest === "" ? "/" : rest.replace(/\/+$/, "") || "/";
}

export function hrefFor(route: string): string {
  return route === "/" ? basePath : `${basePath}${route}`;
}

export function navigate(route: string): void {
  window.history.pushState(null, "", hrefFor(route));
  window.dispatchEvent(new Event(moved));
}

/** The current route, re-rendering on back, forward and `navigate`. */
export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener("popstate", update);
    window.addEventListener(moved, update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener(moved, update);
    };
  }, []);
  return route;
}
