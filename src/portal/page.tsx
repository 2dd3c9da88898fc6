import type { Children } from "@kitajs/html";
import { PortalLayout, type ShellProps } from "../../views/portal/layout";
import type { FormProblem } from "../../views/portal/ui";
import { CommandError } from "../core/errors";
import { inputForField } from "../products/forms";
import { inWords } from "./words";

/** An htmx request for part of a page (not a history restore, which needs the whole page). */
const wantsFragment = (request: Request) => request.headers.get("hx-request") === "true" && request.headers.get("hx-history-restore-request") !== "true";

/** A portal page: the fragment for htmx, the full layout otherwise. */
export function page(request: Request, shell: ShellProps, children: Children): JSX.Element {
  if (wantsFragment(request)) return <>{children}</>;
  return <PortalLayout {...shell}>{children}</PortalLayout>;
}

/** A refusal as a form shows it: the domain's rule in people's words, next to the input it names, with every other field the same check refused. */
export function problemOf(error: unknown): FormProblem {
  if (!(error instanceof CommandError)) throw error;
  const more = error.more.map((other) => ({ message: inWords(other.message), input: inputForField(other.field) }));
  return { message: inWords(error.message), input: inputForField(error.field), ...(more.length ? { more } : {}) };
}

/** A refusal for a page that shows it: the answer takes the domain's status, the page the problem in words. */
export function refusedProblem(error: unknown, set: { status?: number | string }): FormProblem {
  const problem = problemOf(error);
  set.status = (error as CommandError).status;
  return problem;
}

/**
 * Every submitted field by its input name. Elysia nests dotted names of multipart forms
 * ({ name: { first } }) but not of urlencoded ones: both are flattened back to "name.first".
 */
function submittedFields(body: unknown, prefix = "", into: [string, unknown][] = []): [string, unknown][] {
  if (body && typeof body === "object" && !(body instanceof Blob))
    for (const [key, value] of Object.entries(body)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === "object" && !(value instanceof Blob)) submittedFields(value, name, into);
      else into.push([name, value]);
    }
  return into;
}

/** Submitted form fields as strings (files are handled by formValuesWithFiles). */
export function formValues(body: unknown): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of submittedFields(body)) if (typeof value === "string") values[name] = value;
  return values;
}

/** Submitted fields with uploaded files as base64 — what the JSON surface takes for documents. Empty file inputs are left out. */
export async function formValuesWithFiles(body: unknown): Promise<Record<string, string | undefined>> {
  const values = formValues(body);
  for (const [name, value] of submittedFields(body))
    if (value instanceof Blob && value.size > 0) values[name] = Buffer.from(await value.arrayBuffer()).toString("base64");
  return values;
}

/** A typed form value, or undefined when the input was left blank (so the seed says "is required"). */
export const typedValue = (value: string | undefined) => value?.trim() || undefined;

/** A seed read from a form without the fields left blank. */
export const givenFields = (seed: Record<string, unknown>) => Object.fromEntries(Object.entries(seed).filter(([, v]) => v !== undefined));
