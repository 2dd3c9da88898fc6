import { ERRORS, ErrorPage } from "../../views/errors";
import { isPortalPath } from "../portal/paths";

/** A person's browser (or a portal path), not a program: errors are answered with a page. */
export const wantsPage = (request: Request, path: string) => isPortalPath(path) || (request.headers.get("accept") ?? "").includes("text/html");

/**
 * A whole error page for a visitor whose session is not known here (the portal's own pages use its
 * layout): one of the table's (ERRORS) or a refusal's own words.
 */
export function errorPage(
  set: { headers: Record<string, unknown> },
  words: keyof typeof ERRORS | { title: string; message: string },
  requestId?: string,
): JSX.Element {
  set.headers["content-type"] = "text/html; charset=utf-8";
  const { title, message } = typeof words === "string" ? ERRORS[words] : words;
  return <ErrorPage title={title} message={message} requestId={requestId} back={{ href: "/", label: "Go to the start page" }} />;
}
