import type { PortalRole } from "../core/principal";

/** A link of the portal's side navigation, declared by the module that serves the page (its manifest). */
export interface NavEntry {
  /** Partner staff's portal or the operator's admin pages. */
  area: "portal" | "admin";
  href: string;
  label: string;
  /** What a page names as active to mark this link as current. */
  key: string;
  /** Place in the list, lowest first. */
  order: number;
  /** When only some viewers of the area see it. */
  shownTo?: (viewer: NavViewer) => boolean;
}

export interface NavViewer {
  role: PortalRole;
  enrichmentEnabled: boolean;
}

export type NavLink = Pick<NavEntry, "href" | "label" | "key">;

/** The links `viewer` sees: admins the admin area's, partner staff the portal's, in order. */
export function navigationFor(entries: readonly NavEntry[], viewer: NavViewer): NavLink[] {
  const area = viewer.role === "admin" ? "admin" : "portal";
  return entries
    .filter((entry) => entry.area === area && (entry.shownTo?.(viewer) ?? true))
    .toSorted((a, b) => a.order - b.order)
    .map(({ href, label, key }) => ({ href, label, key }));
}
