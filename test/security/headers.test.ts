/**
 * Security headers on every answer: every route of `app.routes` (pages, fragments, downloads,
 * assets, the JSON endpoint, refusals), answers no route produced (404, wrong method) and errors.
 * Pages must also be servable under that policy: no inline script or style in any HTML we send.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type Browser, signedIn } from "../portal/browser";
import { type World, world } from "./world";

let w: World;
let owner: Browser;
let admin: Browser;
let policyId: string;
beforeAll(async () => {
  w = await world();
  owner = w.b.browser;
  admin = await signedIn(w.t, w.admin.portal);
  const result = await w.t.database.db.execute(
    sql`select id from policies where reference = ${w.b.policy.reference} and partner_id = ${w.b.partner.partnerId}`,
  );
  policyId = ((Array.isArray(result) ? result : (result as { rows: any[] }).rows)[0] as { id: string }).id;
}, 60_000);

function expectSecurityHeaders(what: string, headers: Headers) {
  const csp = headers.get("content-security-policy") ?? "";
  const directives = Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
  expect({ what, csp: !!csp, unsafe: /unsafe-inline|unsafe-eval|\*/.test(csp) }).toEqual({ what, csp: true, unsafe: false });
  expect({
    what,
    defaultSrc: directives["default-src"],
    frameAncestors: directives["frame-ancestors"],
    scriptSrc: directives["script-src"],
    objectSrc: directives["object-src"],
  }).toEqual({
    what,
    defaultSrc: ["'self'"],
    frameAncestors: ["'none'"],
    scriptSrc: ["'self'"],
    objectSrc: ["'none'"],
  });
  expect({ what, nosniff: headers.get("x-content-type-options"), frame: headers.get("x-frame-options"), referrer: headers.get("referrer-policy") }).toEqual({
    what,
    nosniff: "nosniff",
    frame: "DENY",
    referrer: "same-origin",
  });
}

/** HTML must run under the policy: scripts only from files, no style attributes or blocks, no inline handlers. */
function expectNoInlineCode(what: string, html: string) {
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/gi)].map((m) => m[0]);
  const styles = [...html.matchAll(/<style\b|\sstyle="|\son[a-z]+="/gi)].map((m) => m[0]);
  expect({ what, inlineScripts, styles }).toEqual({ what, inlineScripts: [], styles: [] });
}

const unknownRecord = crypto.randomUUID();

/** A concrete path for a route pattern, with B's records (so pages render whole). */
function concrete(path: string): string {
  const values: Record<string, string> = {
    ":file": "app.css",
    ":token": w.b.policy.certToken,
    ":policyNo": w.b.policy.policyNo,
    ":reference": w.b.policy.reference,
    ":claimNo": w.b.claimNo,
    ":complaintNo": w.b.complaintNo,
    ":position": "1",
    ":planNo": w.b.planNo,
    ":change": "reactivate",
    ":field": "socialID.image",
    ":code": "vhcl-tprt-1111",
    ":partnerId": w.b.partner.partnerId,
    ":provider": "sandbox",
    ":decision": "approve",
    ":day": "2031-01-02",
    ":notice": "policy.issued",
    ":form": "email",
    ":channel": "email",
  };
  return path.replace(/:[A-Za-z]+/g, (param) => {
    if (param === ":id") {
      if (path.startsWith("/portal/consumers") || path.startsWith("/admin/consumers")) return w.b.consumer.id;
      if (path.startsWith("/portal/webhooks/deliveries")) return w.b.deliveryId;
      if (path.startsWith("/portal/webhooks")) return w.b.endpoint.id;
      if (path.startsWith("/portal/team")) return w.b.staff.id;
      if (path.startsWith("/admin/partners") || path.startsWith("/brand")) return w.b.partner.partnerId;
      if (path.startsWith("/admin/messages") || path.startsWith("/portal/messages")) return w.b.messageId;
      if (path.startsWith("/admin/policies")) return policyId;
      // No funding of B's, nor another administrator, is needed: the answer (a refusal) must carry the headers all the same.
      if (path.startsWith("/admin/fundings") || path.startsWith("/portal/wallet/fundings") || path.startsWith("/admin/administrators")) return unknownRecord;
    }
    const value = values[param];
    if (!value) throw new Error(`no value for ${param} in ${path}: add one`);
    return value;
  });
}

describe("every route answers with the security headers", () => {
  test("GET routes: anonymous, and signed in with the role the page is for", async () => {
    for (const route of w.t.app.routes.filter((r) => r.method === "GET")) {
      const path = concrete(route.path);
      const anonymous = await w.t.app.handle(new Request(`http://localhost${path}`));
      expectSecurityHeaders(`GET ${path} (anonymous, ${anonymous.status})`, anonymous.headers);
      const browser = route.path.startsWith("/admin") ? admin : owner;
      for (const headers of [{}, { "hx-request": "true" }] as Record<string, string>[]) {
        const response = await browser.get(path, headers);
        expectSecurityHeaders(`GET ${path} (${response.status}${"hx-request" in headers ? ", htmx" : ""})`, response.headers);
        if ((response.headers.get("content-type") ?? "").startsWith("text/html")) expectNoInlineCode(`GET ${path}`, response.text);
      }
    }
  }, 120_000);

  test("every other route, including refusals (no CSRF token: 403) and the JSON endpoint", async () => {
    for (const route of w.t.app.routes.filter((r) => r.method !== "GET")) {
      const path = concrete(route.path);
      const response = await w.t.app.handle(
        new Request(`http://localhost${path}`, {
          method: route.method,
          headers: { cookie: `session=${owner.cookie("session")}`, "content-type": "application/x-www-form-urlencoded" },
          body: "",
        }),
      );
      expectSecurityHeaders(`${route.method} ${path} (${response.status})`, response.headers);
    }
    const command = await w.t.app.handle(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(w.b.partner.envelope("dump entt_*")),
      }),
    );
    expect((await command.json()).exctnFdbck.id).toBe(75);
    expectSecurityHeaders("POST / (a command)", command.headers);
  });

  test("answers no route produced: unknown paths, wrong methods, malformed requests", async () => {
    const requests: [string, RequestInit][] = [
      ["/no-such-page", {}],
      ["/portal/no-such-page", {}],
      ["/portal", { method: "PUT" }],
      ["/", { method: "DELETE" }],
      ["/public/../package.json", {}],
      ["/", { method: "POST", body: "{not json" }],
      ["/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }],
    ];
    for (const [path, init] of requests) {
      const response = await w.t.app.handle(new Request(`http://localhost${path}`, init));
      expectSecurityHeaders(`${init.method ?? "GET"} ${path} (${response.status})`, response.headers);
    }
  });

  test("downloads are served as what they are: certificates and claim documents with their type, never sniffed", async () => {
    const certificate = await w.t.app.handle(new Request(`http://localhost/certificates/${w.b.policy.certToken}`));
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get("content-type")).toBe("application/pdf");
    expect(certificate.headers.get("cache-control")).toContain("no-store");
    const document = await owner.get(`/portal/claims/${w.b.claimNo}/documents/1`);
    expect(document.status).toBe(200);
    expect(document.headers.get("content-type")).toBe("image/png");
    expect(document.headers.get("content-disposition")).toStartWith("attachment");
    for (const response of [certificate, document]) expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("portal pages are not cached", async () => {
    for (const path of ["/portal", "/portal/keys", "/portal/webhooks", "/login"]) expect((await owner.get(path)).headers.get("cache-control")).toBe("no-store");
  });
});
