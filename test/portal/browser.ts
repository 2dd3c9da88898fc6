/** A minimal browser for portal tests: a cookie jar, form posts with the page's CSRF token, no redirects followed. */
import type { TestApp } from "../support/harness";

export interface PortalResponse {
  status: number;
  location: string | null;
  hxRedirect: string | null;
  text: string;
  headers: Headers;
}

/** What a person must never read in the portal's error messages: integrators' words, units and wire names (src/portal/words.ts). */
export const JARGON: readonly RegExp[] = [
  /seed\./,
  /\bJSON\b/,
  /kobo/i,
  /\b(?:prfl entity|wallet topup|webhook (?:update|delete|list|deliveries)|claim submit)\b/,
  /\b(?:insrncDrtn|statusNote|socialID|eMail|phoneNo|dob\.date|addrss|addtnlFact|vhclValueForInsrnc|loanAmount|LoanAmount|travelerAge|nokName|medicalTestClearance|approvedAmount|search_type)\b/,
  /\((?:class|status) [a-z]\)/,
];

/** Every error a page shows beside a field or above a form, as text. */
const errorsOn = (html: string) =>
  [...html.matchAll(/<(?:p|div)[^>]*class="(?:error|problem)"[^>]*>([\s\S]*?)<\/(?:p|div)>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));

export class Browser {
  private cookies = new Map<string, string>();
  /** The CSRF token of the last page that carried one. */
  csrf = "";

  constructor(private readonly t: TestApp) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }

  cookie(name: string) {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  private async send(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<PortalResponse> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await this.t.app.handle(new Request(`http://localhost${path}`, { ...init, headers, redirect: "manual" }));
    this.remember(response);
    const text = await response.text();
    // Every portal test checks this on every page and fragment it reads.
    for (const error of errorsOn(text))
      for (const pattern of JARGON) if (pattern.test(error)) throw new Error(`${path}: an error in integrators' words (${pattern}): ${error}`);
    const token = /"x-csrf-token":"([^"]+)"/.exec(text.replaceAll("&quot;", '"'))?.[1] ?? /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return {
      status: response.status,
      location: response.headers.get("location"),
      hxRedirect: response.headers.get("hx-redirect"),
      text,
      headers: response.headers,
    };
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.send(path, { method: "GET", headers });
  }

  /** A form post (urlencoded, or multipart when a value is a Blob), with the CSRF token unless given. */
  post(path: string, fields: Record<string, string | Blob>, headers: Record<string, string> = {}) {
    const withToken: Record<string, string | Blob> = { _csrf: this.csrf, ...fields };
    const multipart = Object.values(withToken).some((v) => typeof v !== "string");
    if (multipart) {
      const form = new FormData();
      for (const [k, v] of Object.entries(withToken)) form.append(k, v);
      return this.send(path, { method: "POST", body: form, headers });
    }
    return this.send(path, {
      method: "POST",
      body: new URLSearchParams(withToken as Record<string, string>).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  /** A urlencoded form post whose fields may repeat (the checkboxes of one name), with the CSRF token. */
  postForm(path: string, pairs: readonly [string, string][]) {
    return this.send(path, {
      method: "POST",
      body: new URLSearchParams([["_csrf", this.csrf], ...pairs]).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }

  /**
   * A post that asks first (views/portal/confirm.tsx): the answer to `fields` is the confirmation
   * step, whose button then sends its fields back. `step` is that page (null when the post was
   * refused or done without one), `answer` what its button got.
   */
  async postConfirmed(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const step = await this.post(path, fields, headers);
    const back = confirmStepFields(step.text);
    if (!back) return { step: null, answer: step };
    return { step, answer: await this.post(back.action, back.fields, headers) };
  }

  /** Sign in through the real form. */
  async signIn(email: string, password: string): Promise<PortalResponse> {
    await this.get("/login");
    return this.post("/login", { email, password });
  }
}

/** A signed-in browser for a partner made by the harness (owner, or operator admin). */
export async function signedIn(t: TestApp, portal: { email: string; password: string }): Promise<Browser> {
  const browser = new Browser(t);
  const answer = await browser.signIn(portal.email, portal.password);
  if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  await browser.get(answer.location!);
  return browser;
}

const fromAttribute = (value: string) =>
  value.replace(
    /&(?:quot|#34|#39|#x27|lt|gt|amp);/g,
    (entity) => ({ "&quot;": '"', "&#34;": '"', "&#39;": "'", "&#x27;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&" })[entity]!,
  );

/** The confirmation step on a page (views/portal/confirm.tsx): where its button posts and the hidden fields it sends, the CSRF token aside. */
export function confirmStepFields(html: string): { action: string; fields: Record<string, string> } | null {
  const section = /<section[^>]*class="card confirm-step"[\s\S]*?<\/section>/.exec(html)?.[0];
  const action = section && /<form[^>]* action="([^"]+)"/.exec(section)?.[1];
  if (!section || !action) return null;
  const fields: Record<string, string> = {};
  for (const m of section.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    if (m[1] !== "_csrf") fields[fromAttribute(m[1]!)] = fromAttribute(m[2]!);
  return { action: fromAttribute(action), fields };
}
