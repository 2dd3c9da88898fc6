import { describe, expect, test } from "bun:test";
import { testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });

/** The rows of the log table (each request is one <tr id="request-…">). */
const rowCount = (html: string) => (html.match(/<tr id="request-/g) ?? []).length;
const showMore = (html: string) => /hx-get="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;

describe("API log page", () => {
  test("shows the partner's own requests, newest first, with answers, and without keys or secrets", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    expect((await a.run("dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" })).exctnFdbck.id).toBe(75);
    expect((await a.run("wallet topup", { amount: "oops", reference: "r-1" }, "live")).exctnFdbck.id).toBe(55);
    const hook = await a.run("webhook register", { url: "http://127.0.0.1:9/partner-a" });
    expect(hook.secret).toMatch(/^whsec_/);
    await b.run("dump ipck_phnn-flx1-1111*PRMM", { insrncDrtn: "6m" }, "live");

    const browser = await signedIn(t, a.portal);
    const page = await browser.get("/portal/api-log");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>API log</h1>");
    expect(page.text).toContain('<a href="/portal/api-log" aria-current="page">API log</a>');
    // Written by the flusher, shown at once: the page writes what this instance still holds first.
    expect(rowCount(page.text)).toBe(3);
    const quote = page.text.indexOf("dump ipck_vhcl-tprt-1111*PRMM");
    const topup = page.text.indexOf("<code>wallet topup</code>");
    expect(topup).toBeGreaterThan(0);
    expect(quote).toBeGreaterThan(topup); // newest first
    expect(page.text).toContain("75 · 200");
    expect(page.text).toContain("55 · 400");
    expect(page.text).toContain("seed.amount"); // the refusal's elbrtn
    expect(page.text).toContain("Test key");
    expect(page.text).toContain("&quot;prmm&quot;: 15000"); // the answer, pretty-printed
    expect(page.text).toContain("[redacted]");
    for (const key of Object.values(a.keys).map((k) => k.key)) expect(page.text).not.toContain(key);
    expect(page.text).not.toContain(hook.secret);
    expect(page.text).not.toContain("whsec_");
    // Another partner's requests are not there, and its own page shows only them.
    expect(page.text).not.toContain("phnn-flx1-1111");
    const other = await (await signedIn(t, b.portal)).get("/portal/api-log");
    expect(rowCount(other.text)).toBe(1);
    expect(other.text).toContain("dump ipck_phnn-flx1-1111*PRMM");
    expect(other.text).toContain("Live key");
    expect(other.text).not.toContain("vhcl-tprt-1111");
  });

  test("filters by command and outcome, and pages with Show more", async () => {
    const p = await t.partner();
    for (let i = 0; i < 30; i++) await p.run("dump ipck_phnn-flx1-1111*PRMM", { insrncDrtn: i % 7 ? "1y" : "9y" });
    await p.run("dump entt_*");
    await p.run("not a command");
    const browser = await signedIn(t, p.portal);

    const first = await browser.get("/portal/api-log");
    expect(rowCount(first.text)).toBe(25);
    const more = showMore(first.text);
    expect(more).toMatch(/^\/portal\/api-log\?rows=1&cursor=/);
    const rest = await browser.get(more!, { "hx-request": "true" });
    expect(rest.status).toBe(200);
    expect(rest.text).not.toContain("<html");
    expect(rowCount(rest.text)).toBe(7);
    expect(showMore(rest.text)).toBeNull();

    const errors = await browser.get("/portal/api-log?outcome=55");
    expect(rowCount(errors.text)).toBe(6); // five 9y quotes and the unknown command
    expect(errors.text).toContain('<option value="55" selected>');
    const unknown = await browser.get("/portal/api-log?command=unknown");
    expect(rowCount(unknown.text)).toBe(1);
    expect(unknown.text).toContain("unknown command");
    const lists = await browser.get(`/portal/api-log?command=${encodeURIComponent("dump entt_*")}`);
    expect(rowCount(lists.text)).toBe(1);
    const quotes = await browser.get(`/portal/api-log?command=${encodeURIComponent("dump ipck_<product_code>*PRMM")}&outcome=75`);
    expect(rowCount(quotes.text)).toBe(25);
    // The filters travel with Show more.
    expect(showMore((await browser.get("/portal/api-log?outcome=75")).text)).toContain("outcome=75");
    // Unknown filter values are ignored; a forged cursor is refused.
    expect(rowCount((await browser.get("/portal/api-log?outcome=99&command=nope")).text)).toBe(25);
    expect((await browser.get("/portal/api-log?rows=1&cursor=forged", { "hx-request": "true" })).status).toBe(400);
  });

  test("hostile text in a request is shown as text", async () => {
    const p = await t.partner();
    await p.run('<script>alert("x")</script>', { "<img src=x onerror=alert(1)>": "</pre><b>bold</b>" });
    const page = await (await signedIn(t, p.portal)).get("/portal/api-log");
    expect(rowCount(page.text)).toBe(1);
    expect(page.text).not.toContain("<script>alert");
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).not.toContain("</pre><b>");
    expect(page.text).toContain("&lt;script&gt;alert(");
  });

  test("an empty log says how to fill it; only partner staff may open the page", async () => {
    const p = await t.partner();
    const page = await (await signedIn(t, p.portal)).get("/portal/api-log");
    expect(page.text).toContain("No requests yet");
    const operator = await t.partner({ admin: true });
    expect((await (await signedIn(t, operator.portal)).get("/portal/api-log")).status).toBe(403);
    const anonymous = await t.app.handle(new Request("http://localhost/portal/api-log", { redirect: "manual" }));
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/login?next=%2Fportal%2Fapi-log");
  });
});
