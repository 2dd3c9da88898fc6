import { describe, expect, test } from "bun:test";
import { productName } from "../../src/products";
import { testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases } from "../support/policies";
import { signedIn } from "./browser";

/** Issue 36: the review desk reads as it is judged (the risk, then the decision); the queue's quick approve names what the insurer takes on. */

const t = await testApp();
const operator = await t.partner({ admin: true });

/** The policy id of the approvals-queue row showing `reference`. */
const rowOf = (html: string, reference: string) => [...html.slice(0, html.indexOf(reference)).matchAll(/id="pending-([0-9a-f-]{36})"/g)].at(-1)?.[1];

/** A live policy of `code` waiting for the operator's review (marine import: goods of ₦5,000,000 from Lagos). */
async function pending(code = "mrnn-stnd-1111") {
  const p = await t.partner();
  await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
  const { id: consumer } = await p.run("prfl entity", fullConsumer());
  const c = productCases[code]!;
  await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), "live");
  expect(answer.status).toBe("p");
  const admin = await signedIn(t, operator.portal);
  const queue = await admin.get("/admin");
  const id = rowOf(queue.text, answer.id)!;
  expect(id).toBeDefined();
  return { admin, queue: queue.text, id, consumer: consumer as string, reference: answer.id as string };
}

/** The part of the page from `from` up to `to`. */
const between = (html: string, from: string, to: string) => html.slice(html.indexOf(from), html.indexOf(to, html.indexOf(from)));

describe("the review desk (issue 36)", () => {
  test("the risk comes first, above the decision: the product in words, the insured, the sum insured, the premium, the cover, the goods and the voyage", async () => {
    const { admin, id, consumer } = await pending();
    const desk = (await admin.get(`/admin/policies/${id}`)).text;
    const risk = between(desk, "<h3>The risk</h3>", "</dl>");
    expect(risk).toContain(`<dt>Product</dt><dd>${productName("mrnn-stnd-1111")}</dd>`);
    expect(risk).not.toContain("mrnn-stnd-1111");
    expect(risk).toContain(`<dt>Insured</dt><dd><a href="/admin/consumers/${consumer}">Adaeze Okafor</a></dd>`);
    expect(risk).toContain("<dt>Sum insured</dt><dd>₦5,000,000.00</dd>");
    expect(risk).toMatch(/<dt>Premium<\/dt><dd>₦[\d,]+\.\d\d<\/dd>/);
    expect(risk).toMatch(/<dt>Cover<\/dt><dd>\d+ \w+ \d{4} to \d+ \w+ \d{4}<\/dd>/);
    expect(risk).toContain("<dt>Goods value</dt>");
    expect(risk).toContain("<dt>Voyage</dt>");
    // In reading order: the risk, the consumer and the documents, then the decision and its buttons.
    const order = ["<h3>The risk</h3>", "<h3>Consumer</h3>", "<h3>Documents</h3>", "<h3>Decision</h3>", ">Approve</button>", ">Decline</button>"].map((h) =>
      desk.indexOf(h),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Nothing of the risk is repeated below the desk (the policy's generic details are not drawn while it waits).
    expect(desk.split("<dt>Goods value</dt>")).toHaveLength(2);
    expect(desk).toContain("Waiting for your review.");
    // The status block reloads itself in the operator's terms too.
    const status = await admin.get(`/admin/policies/${id}/status`, { "hx-request": "true" });
    expect(status.text).toContain("Waiting for your review.");
    expect(status.text).not.toContain("insurer&#x27;s review");
  });

  test("the decision: approving names the premium and the sum insured; Enter in the reason declines, Shift+Enter starts a new line", async () => {
    const { admin, id, reference } = await pending();
    const desk = (await admin.get(`/admin/policies/${id}`)).text;
    const premium = /<dt>Premium<\/dt><dd>(₦[\d,]+\.\d\d)<\/dd>/.exec(desk)?.[1];
    expect(desk).toContain(`hx-confirm="Approve policy ${reference}? Premium ${premium}, sum insured ₦5,000,000.00. The partner is told at once`);
    const reason = /<textarea[^>]*name="statusNote"[^>]*>/.exec(desk)?.[0] ?? "";
    expect(reason).toContain('data-key="d"');
    expect(reason).toContain("data-enter-submits");
    expect(desk).toContain("<kbd>Shift</kbd>+<kbd>Enter</kbd> starts a new line");
    // The script that makes Enter send the reason's form (the page's CSP allows no inline script).
    const script = await (await t.app.handle(new Request("http://localhost/public/portal.js"))).text();
    expect(script).toContain("textarea[data-enter-submits]");
    expect(script).toContain("requestSubmit");
  });

  test("the queue's quick approve shows the premium and the sum insured, and asks with both", async () => {
    const marine = await pending();
    const row = between(marine.queue, `id="pending-${marine.id}"`, "</tr>");
    expect(marine.queue).toContain('<th scope="col" class="num">Sum insured</th>');
    expect(row).toContain("₦5,000,000.00");
    expect(row).toMatch(new RegExp(`hx-confirm="Approve policy ${marine.reference}\\? Premium ₦[\\d,]+\\.\\d\\d, sum insured ₦5,000,000\\.00\\.`));
    expect(row).toContain(`hx-confirm="Decline policy ${marine.reference}? The partner is told at once, with your reason."`);
    // Each decision still works from the row.
    const approved = await marine.admin.post(`/admin/policies/${marine.id}/review`, { decision: "a" }, { "hx-request": "true" });
    expect(approved.text).toContain(`Approved ${marine.reference}`);
    expect(approved.text).toContain('colspan="8"');
  });
});
