/**
 * htmx's configuration on every page that loads it (issue 13): without it htmx injects an inline
 * <style> the CSP refuses, and the browser logs a violation on that page. Checked on every GET route
 * without a path parameter (anonymous, and signed in as a partner and as an administrator), on the
 * public pages with a parameter, and on a refused sign-in; and in the sources, where only the one
 * component may load htmx, so a page added later cannot load it without the configuration.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { htmxConfig } from "../views/htmx";
import { Browser, signedIn } from "./portal/browser";
import { type TestApp, testApp } from "./support/harness";

let t: TestApp;
let partner: Browser;
let admin: Browser;
beforeAll(async () => {
  t = await testApp();
  partner = await signedIn(t, (await t.partner()).portal);
  admin = await signedIn(t, (await t.partner({ admin: true })).portal);
}, 60_000);

const decode = (attribute: string) => attribute.replaceAll("&quot;", '"').replaceAll("&#34;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/** What a page says about htmx: whether it loads it, and the configuration it gives it before that. */
function htmxOf(html: string) {
  const script = html.indexOf('src="/public/htmx.min.js"');
  const meta = /<meta name="htmx-config" content="([^"]*)"/.exec(html);
  return {
    loadsHtmx: script >= 0,
    config: meta ? JSON.parse(decode(meta[1]!)) : null,
    configFirst: meta !== null && meta.index < script,
  };
}

function expectConfigured(what: string, html: string) {
  const found = htmxOf(html);
  if (!found.loadsHtmx) return false;
  expect({ what, ...found }).toEqual({ what, loadsHtmx: true, config: htmxConfig, configFirst: true });
  return true;
}

describe("every page that loads htmx configures it first", () => {
  test("the public pages: landing, sign-in, reference, verification (known or not), a refused sign-in", async () => {
    const pages = ["/", "/login", "/docs", "/verify/POL-NONE-2026-000000000000"];
    for (const path of pages) {
      const response = await t.app.handle(new Request(`http://localhost${path}`));
      expect({ path, loadsHtmx: expectConfigured(path, await response.text()) }).toEqual({ path, loadsHtmx: true });
    }
    const refused = await new Browser(t).signIn("nobody@example.ng", "not the password at all");
    expect(expectConfigured("refused sign-in", refused.text)).toBe(true);
  });

  test("every GET route without a parameter, anonymous and signed in as a partner and as an administrator", async () => {
    const paths = t.app.routes.filter((r) => r.method === "GET" && !r.path.includes(":") && !r.path.includes("*")).map((r) => r.path);
    let configured = 0;
    for (const path of paths) {
      const anonymous = await t.app.handle(new Request(`http://localhost${path}`));
      const pages = [await anonymous.text(), (await (path.startsWith("/admin") ? admin : partner).get(path)).text];
      for (const html of pages) if (expectConfigured(path, html)) configured++;
    }
    // The portal's own pages are among them (its layout and the public one both go through the component).
    expect(configured).toBeGreaterThan(10);
  });

  test("in the sources, only the component loads htmx", () => {
    const root = join(import.meta.dir, "..");
    const loaders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && readFileSync(join(root, path), "utf8").includes("htmx.min.js")) loaders.push(path);
      }
    };
    for (const dir of ["src", "views"]) walk(dir);
    expect(loaders).toEqual([join("views", "htmx.tsx")]);
  });
});
