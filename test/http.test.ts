import { describe, expect, test } from "bun:test";
import { testApp } from "./support/harness";

const t = await testApp();

describe("other routes", () => {
  test("GET /healthz reports database reachability", async () => {
    const response = await t.app.handle(new Request("http://localhost/healthz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "up", engine: t.database.engine });
  });

  test("GET / is a page explaining the endpoint; assets are served from public/", async () => {
    const page = await t.app.handle(new Request("http://localhost/"));
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("POST /");
    const css = await t.app.handle(new Request("http://localhost/public/app.css"));
    expect(css.status).toBe(200);
    expect((await t.app.handle(new Request("http://localhost/public/..%2Fpackage.json"))).status).toBe(404);
  });

  // Issue 13: a doubly encoded slash or dot-dot answered 500 (the URL was built before the check).
  test("no probe of a static file answers 5xx", async () => {
    const probes = [
      "a%252fb.css",
      "%252e%252e%252fpackage.json",
      "%2e%2e/package.json",
      "..%2fpackage.json",
      "..%2Fapp.css",
      "app.css%00",
      "%00.css",
      "%ff.css",
      "a%ffb.js",
      `${"a".repeat(5000)}.css`,
      "x/y",
      "",
      ".css",
      "..css",
      "app.css.",
      "constructor",
      "__proto__.css",
      "a%5cb.css",
      "%2e%2e%5capp.css",
      "app.css%20",
      "C:%5capp.css",
    ];
    for (const probe of probes) {
      const response = await t.app.handle(new Request(`http://localhost/public/${probe}`));
      expect({ probe, status: response.status < 500 }).toEqual({ probe, status: true });
    }
    expect((await t.app.handle(new Request("http://localhost/public/htmx.min.js"))).status).toBe(200);
  });

  test("unknown paths are 404", async () => {
    expect((await t.app.handle(new Request("http://localhost/nowhere"))).status).toBe(404);
  });
});

// Found by the fuzzer's probes (test/fuzz): both answered HTTP 500 (a NUL reached the database).
describe("text that can never be stored in a path or query", () => {
  test("is a 400 on the public pages too, before any lookup", async () => {
    for (const path of ["/verify/POL%00", "/certificates/%00", "/verify/TST?x=%00"]) {
      const response = await t.app.handle(new Request(`http://localhost${path}`));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain("contains a NUL character");
    }
  });
});
