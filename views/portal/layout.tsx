import type { Children } from "@kitajs/html";
import type { PortalRole } from "../../src/core/principal";
import { PageHead } from "../layout";
import { HeaderSearch } from "../search/search";

/** What every portal page knows about the person looking at it. */
export interface ShellProps {
  title: string;
  /** The nav entry to mark as current. */
  active?: string;
  viewer: {
    name: string;
    email: string;
    role: PortalRole;
    partnerName: string;
    mode: "test" | "live";
    enrichmentEnabled: boolean;
    /** The side navigation's links this viewer may open (declared by the modules' manifests). */
    navigation: readonly { href: string; label: string; key: string }[];
  };
  csrf: string;
}

/** The portal's page shell: navigation for the viewer's role, the mode banner, and htmx with the CSRF header. */
export function PortalLayout(props: ShellProps & { children: Children }) {
  const { viewer } = props;
  // The operator's administrators work in their own console, not in the partners' portal.
  const surface = viewer.role === "admin" ? "Operator console" : "Partner portal";
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <PageHead title={`${props.title} · ${surface}`} script="/public/portal.js" />
        <body hx-headers={JSON.stringify({ "x-csrf-token": props.csrf })}>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="top">
            <a class="brand" href={viewer.role === "admin" ? "/admin" : "/portal"}>
              {surface}
            </a>
            <span class="account">
              <span safe>{viewer.partnerName}</span>
              {viewer.role !== "admin" && (
                <span class={`mode mode-${viewer.mode}`} title="Account mode: the portal issues in this mode">
                  {viewer.mode === "live" ? "LIVE" : "TEST MODE"}
                </span>
              )}
            </span>
            <HeaderSearch action={viewer.role === "admin" ? "/admin/search" : "/portal/search"} />
            <form method="post" action="/logout" class="inline">
              <input type="hidden" name="_csrf" value={props.csrf} />
              <span class="muted" safe>
                {viewer.name}
              </span>{" "}
              <a href="/docs">API reference</a> <a href="/portal/password">Password</a>{" "}
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          </header>
          <nav class="side" aria-label="Main">
            <button type="button" class="menu-toggle" aria-expanded="false" aria-controls="main-menu">
              Menu
            </button>
            <ul id="main-menu">
              {viewer.navigation.map((entry) => (
                <li>
                  <a href={entry.href} aria-current={entry.key === props.active ? "page" : undefined} safe>
                    {entry.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <main id="main" tabindex="-1">
            {props.children}
          </main>
          <div id="loading" class="htmx-indicator" role="status" aria-live="polite">
            Loading…
          </div>
        </body>
      </html>
    </>
  );
}
