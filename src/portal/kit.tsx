/**
 * What every portal controller needs and none should write again: the redirect after a form, the
 * not-found answer, list paging, file downloads. Controllers stay a few lines per route: parse,
 * call the domain, present, and answer with these.
 */
import { CommandError } from "../core/errors";

/** Rows per page of every portal list (keyset pagination: the "more" link carries the cursor). */
export const PAGE_SIZE = 25;

export type ResponseSet = { status?: number | string; headers: Record<string, unknown> };

/**
 * After a form succeeded: htmx is told where to go (HX-Redirect, so the whole page loads), a plain
 * form submission gets 303 See Other to the same place.
 */
export function redirectTo(request: Request, set: ResponseSet, location: string): string {
  if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
  else {
    set.headers.location = location;
    set.status = 303;
  }
  return "";
}

/** A page or record that is not there (or not this viewer's): 404 with a sentence saying what. */
export function notFound(set: ResponseSet, what: string): JSX.Element {
  set.status = 404;
  return (
    <p class="problem" safe>
      {what}
    </p>
  );
}

/** The CSV download of a list: the same filters, at `path` (e.g. /portal/policies.csv). */
export function exportHref(path: string, filters: object): string {
  const kept = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return kept.length ? `${path}?${new URLSearchParams(kept)}` : path;
}

/** The "more" link of a list: the same filters, only the rows, from `cursor`; null on the last page. */
export function moreHref(base: string, filters: Record<string, string | undefined>, cursor: string | null): string | null {
  if (!cursor) return null;
  const kept = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return `${base}?${new URLSearchParams([...kept, ["rows", "1"], ["cursor", cursor]])}`;
}

/** A stored file as a download under the name it came with (RFC 6266: an ASCII fallback and the UTF-8 name). */
export function download(file: { name: string; mime: string; bytes: Uint8Array }, disposition: "attachment" | "inline" = "attachment"): Response {
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(Buffer.from(file.bytes), {
    headers: {
      "content-type": file.mime,
      "content-disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
}

/** A domain refusal (not found, malformed) read as "nothing here"; anything else is a fault and goes on up. */
export function refusedAsNull(error: unknown): null {
  if (error instanceof CommandError) return null;
  throw error;
}
