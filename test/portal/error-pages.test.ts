import { describe, expect, test } from "bun:test";
import { setLogLevel } from "../../src/core/log";
import { testApp } from "../support/harness";
import { Browser, signedIn } from "./browser";

const t = await testApp();

/** The text of the page's main element, tags and extra spaces removed. */
const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("error pages are pages, in words, with the way back", () => {
  test("an unknown portal or admin address, signed in: 404 inside the viewer's layout, linking home", async () => {
    const p = await t.partner();
    const admin = await t.partner({ admin: true });
    const partner = await signedIn(t, p.portal);
    for (const path of ["/portal/nowhere", "/portal/policies/01/extra", "/portal/keys/mode"]) {
      const page = await partner.get(path);
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.text).toContain('<nav class="side"');
      expect(mainText(page.text)).toContain("Page not found");
      expect(page.text).toContain('<a href="/portal">Go to your home page</a>');
    }
    const operator = await signedIn(t, admin.portal);
    const page = await operator.get("/admin/nowhere");
    expect(page.status).toBe(404);
    expect(page.text).toContain('<a href="/admin">Go to your home page</a>');
    // htmx gets the panel alone, to swap in.
    const fragment = await operator.get("/admin/nowhere", { "hx-request": "true" });
    expect(fragment.status).toBe(404);
    expect(fragment.text).not.toContain("<html");
    expect(fragment.text).toContain("Page not found");
  });

  test("a page of the other role, and a form without its token: 403 pages in words", async () => {
    const p = await t.partner();
    const partner = await signedIn(t, p.portal);
    const forbidden = await partner.get("/admin");
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("content-type")).toContain("text/html");
    expect(mainText(forbidden.text)).toContain("Not available This page is not available to your account.");
    const forged = await partner.post("/portal/wallet/top-up", { _csrf: "forged", amount: "100" });
    expect(forged.status).toBe(403);
    expect(mainText(forged.text)).toContain("This form has expired or did not come from this portal.");
  });

  test("signed out: a portal address asks to sign in first; any other unknown address is a page for a browser and JSON for a program", async () => {
    const b = new Browser(t);
    expect((await b.get("/portal/nowhere")).location).toBe("/login?next=%2Fportal%2Fnowhere");
    const page = await b.get("/nowhere", { accept: "text/html,application/xhtml+xml" });
    expect(page.status).toBe(404);
    expect(page.text).toContain("<title>Page not found</title>");
    expect(page.text).toContain('<a href="/">Go to the start page</a>');
    expect(page.text).toContain('<a href="/login">Partner portal: sign in</a>');
    const program = await b.get("/nowhere", { accept: "application/json" });
    expect(program.status).toBe(404);
    expect(JSON.parse(program.text)).toEqual({ error: "not found" });
  });

  test("a fault of ours: 500 as a page with the request id for a browser, JSON for a program", async () => {
    // A route added before the app first answers (Elysia compiles its router then).
    const app = (await testApp()).app.get("/fault-for-test", () => {
      throw new Error("boom");
    });
    const page = await app.handle(new Request("http://localhost/fault-for-test", { headers: { "x-request-id": "fault-1", accept: "text/html" } }));
    expect(page.status).toBe(500);
    expect(page.headers.get("content-type")).toContain("text/html");
    const text = await page.text();
    expect(text).toContain("Something went wrong");
    expect(text).toContain("Reference for support: <code>fault-1</code>");
    expect(text).not.toContain("boom");
    const program = await app.handle(new Request("http://localhost/fault-for-test"));
    expect(program.status).toBe(500);
    expect(await program.json()).toEqual({ error: "internal error" });
  });

  test("/favicon.ico exists", async () => {
    const icon = await t.app.handle(new Request("http://localhost/favicon.ico"));
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/x-icon");
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  test("a 404's log line names the method, the path, the request id and the time taken", async () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    setLogLevel("info");
    try {
      await t.app.handle(new Request("http://localhost/nowhere", { headers: { "x-request-id": "probe-404" } }));
      await Bun.sleep(20);
    } finally {
      process.stdout.write = write;
      setLogLevel("silent");
    }
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === "probe-404");
    expect(line).toMatchObject({ msg: "request", method: "GET", path: "/nowhere", status: 404 });
    expect(typeof line.ms).toBe("number");
  });
});
