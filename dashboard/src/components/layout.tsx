// The frame of every signed-in page: the product's name, the sections, signing out, and the page itself.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { useSession } from "../session/session.js";
import { Link } from "./link.js";

const sections = [
  { route: "/", name: "Overview" },
  { route: "/jobs", name: "Jobs" },
  { route: "/schemas", name: "Schemas" },
  { route: "/keys", name: "API keys" },
  { route: "/webhooks", name: "Webhooks" },
];

function sectionOf(route: string): string {
  return "/" + (route.split("/")[1] ?? "");
}

export function Layout({ route, children }: { route: string; children: ComponentChildren }) {
  const session = useSession();
  const main = useRef<HTMLElement>(null);
  // After moving to another page, focus goes to it, so that keyboard and screen-reader users start there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [route]);
  return (
    <div class="frame">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">vidrows</span>
        <nav aria-label="Sections">
          <ul>
            {sections.map((section) => (
              <li key={section.route}>
                <Link to={section.route} current={sectionOf(route) === section.route}>
                  {section.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
