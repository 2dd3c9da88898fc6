/** Cancelling from the portal (issue 16): the refund shown before confirming, refusals beside their fields, the policy page after, the operator's desk. */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { policies } from "../../src/modules/policies/schema";
import { testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp();
const operator = await t.partner({ admin: true });

async function approvedTestPolicy(code = "vhcl-tprt-1111") {
  const p = await t.partner();
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer())).id;
  if (c.quote) await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c));
  expect(answer.status).toBe("a");
  const [row] = await t.database.db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
  return { p, reference: answer.id as string, row: row!, status: () => p.run(`dump entt_${consumer}|insr_${c.code}-${answer.id}*STATUS`) };
}

describe("cancelling a policy in the portal", () => {
  test("the policy page offers it; the form shows the refund for today, and for another day when it changes", async () => {
    const { p, reference } = await approvedTestPolicy();
    const b = await signedIn(t, p.portal);
    const detail = await b.get(`/portal/policies/${reference}`);
    expect(detail.text).toContain(`href="/portal/policies/${reference}/cancel"`);
    const form = await b.get(`/portal/policies/${reference}/cancel`);
    expect(form.status).toBe(200);
    expect(form.text).toContain("₦15,000.00 (a test policy: no money moves)");
    expect(form.text).toContain("All of the premium: cancelled within 14 days of issue, with no claim made");
    expect(form.text).toContain("The cover stops as soon as you confirm.");
    expect(form.text).toContain("hx-confirm=");
    // Misrepresentation is the insurer's finding: not offered to partners.
    expect(form.text).not.toContain('value="misrepresentation"');
    const later = await b.get(`/portal/policies/${reference}/cancel/refund?effectiveDate=${watDate(10)}`, { "hx-request": "true" });
    expect(later.text).toContain('id="refund-preview"');
    expect(later.text).toMatch(/The last day of cover is \d{1,2} [A-Z][a-z]{2} \d{4}\./);
    const past = await b.get(`/portal/policies/${reference}/cancel/refund?effectiveDate=${watDate(-3)}`, { "hx-request": "true" });
    expect(past.text).toContain("First day without cover must be today");
    expect(past.text).not.toContain("seed.");
  });

  test("refusals come back beside their fields in words, the form kept; then a cancellation ends on the policy page, which says what came back", async () => {
    const { p, reference, status } = await approvedTestPolicy();
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/policies/${reference}/cancel`);
    const noReason = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(), note: "kept" });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain("Reason is required");
    expect(noReason.text).toContain(">kept</textarea>");
    const otherNoNote = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(), reason: "other" });
    expect(otherNoNote.status).toBe(400);
    expect(otherNoNote.text).toContain("Say why in the note: another reason needs one.");
    const past = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(-1), reason: "insured_request" });
    expect(past.status).toBe(400);
    expect(past.text).toContain("First day without cover must be today");
    expect((await status()).status).toBe("a");

    const done = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(3), reason: "item_sold", note: "Car sold" });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/portal/policies/${reference}`);
    const page = await b.get(done.location!);
    expect(page.text).toContain("Cancelled");
    expect(page.text).toContain("the insured vehicle, device, goods or property was sold or replaced (Car sold)");
    expect(page.text).toContain("₦15,000.00 would have come back (a test policy: no money moved)");
    expect(page.text).not.toContain("/cancel");
    expect((await status()).status).toBe("c");
    // A second go at it is refused in words.
    const again = await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(), reason: "duplicate" });
    expect(again.status).toBe(409);
    expect(again.text).toContain("is already cancelled");
  });

  test("a cancelled policy is reinstated from its page: what is paid back and the gap are shown first", async () => {
    const { p, reference, status } = await approvedTestPolicy();
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/policies/${reference}/cancel`);
    expect((await b.post(`/portal/policies/${reference}/cancel`, { effectiveDate: watDate(2), reason: "insured_request" })).status).toBe(303);
    const detail = await b.get(`/portal/policies/${reference}`);
    expect(detail.text).toContain(`href="/portal/policies/${reference}/reinstate"`);
    const confirm = await b.get(`/portal/policies/${reference}/reinstate`);
    expect(confirm.text).toContain("Nothing (a test policy: no money moves)");
    expect(confirm.text).toContain("None: the cancellation had not taken effect yet.");
    expect(confirm.text).toContain("hx-confirm=");
    const done = await b.post(`/portal/policies/${reference}/reinstate`, {});
    expect(done.status).toBe(303);
    expect((await status()).status).toBe("a");
    const again = await b.post(`/portal/policies/${reference}/reinstate`, {});
    expect(again.status).toBe(409);
    expect(again.text).toContain("is not cancelled");
  });

  test("another partner cannot open or post the form: 404", async () => {
    const { reference, status } = await approvedTestPolicy();
    const stranger = await t.partner();
    const b = await signedIn(t, stranger.portal);
    expect((await b.get(`/portal/policies/${reference}/cancel`)).status).toBe(404);
    expect((await b.post(`/portal/policies/${reference}/cancel`, { reason: "duplicate" })).status).toBe(404);
    expect((await status()).status).toBe("a");
  });

  test("the operator cancels any partner's policy from its page, for misrepresentation too", async () => {
    const { row, status } = await approvedTestPolicy("hlth-axam-1111");
    const admin = await signedIn(t, operator.portal);
    const form = await admin.get(`/admin/policies/${row.id}/cancel`);
    expect(form.text).toContain('value="misrepresentation"');
    const done = await admin.post(`/admin/policies/${row.id}/cancel`, {
      reason: "misrepresentation",
      note: "Condition not declared",
      effectiveDate: watDate(),
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/admin/policies/${row.id}`);
    expect(await status()).toMatchObject({
      status: "c",
      statusNote: `Cancelled from ${watDate()}: misrepresentation or fraud found by the insurer (Condition not declared)`,
    });
    const audit = await admin.get("/admin/audit");
    expect(audit.status).toBe(200);
  });
});

describe("expiring soon", () => {
  test("the dashboard counts policies whose cover ends within 30 days and the list shows them", async () => {
    const { p, reference } = await approvedTestPolicy("gtrn-stnd-1111");
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const yearLong = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    const b = await signedIn(t, p.portal);
    const dashboard = await b.get("/portal");
    expect(dashboard.text).toMatch(
      /<a class="tile" href="\/portal\/policies\?expiring=30"><span class="tile-value">1<\/span><span class="tile-label">Expiring within 30 days/,
    );
    const list = await b.get("/portal/policies?expiring=30");
    expect(list.text).toContain(reference);
    expect(list.text).not.toContain(yearLong.id);
    expect(list.text).toContain('<option value="30" selected>Within 30 days</option>');
  });
});

describe("renewing from the portal", () => {
  test("a policy in its last 60 days offers Renew; the page shows the new premium and cover; confirming opens the new policy, linked both ways", async () => {
    const { p, reference, row } = await approvedTestPolicy("gtrn-stnd-1111");
    const b = await signedIn(t, p.portal);
    // A trip is not renewed: no link, and the page says why.
    expect((await b.get(`/portal/policies/${reference}`)).text).not.toContain("/renew");
    expect((await b.get(`/portal/policies/${reference}/renew`)).text).toContain("it is not renewed");
    const device = await approvedTestPolicy("phnn-flx1-1111");
    await t.database.db
      .update(policies)
      .set({ coverEnd: new Date(Date.now() + 10 * 86_400_000) })
      .where(eq(policies.id, device.row.id));
    const d = await signedIn(t, device.p.portal);
    const detail = await d.get(`/portal/policies/${device.reference}`);
    expect(detail.text).toContain(`href="/portal/policies/${device.reference}/renew"`);
    const confirm = await d.get(`/portal/policies/${device.reference}/renew`);
    expect(confirm.text).toContain("₦7,200.00 (test mode: nothing is paid)");
    expect(confirm.text).toContain("At once (test mode: a specimen)");
    const done = await d.post(`/portal/policies/${device.reference}/renew`, {});
    expect(done.status).toBe(303);
    const renewal = await d.get(done.location!);
    expect(renewal.text).toContain(`Renews policy <a href="/portal/policies/${device.reference}">`);
    const old = await d.get(`/portal/policies/${device.reference}`);
    expect(old.text).toContain("continues the cover");
    expect(old.text).not.toContain('/renew"');
    expect(row.reference).toBe(reference);
  });
});
