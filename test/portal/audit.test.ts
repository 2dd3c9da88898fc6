import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { auditLog } from "../../src/modules/audit/schema";
import { testApp } from "../support/harness";
import { lifecycleHelpers } from "../support/lifecycle";
import { watDate } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved } = lifecycleHelpers(t, operator);

const recordsOf = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
/** The rows of the log's table on a page (its body's rows, "Show more" aside). */
const tableRows = (html: string) => [...html.matchAll(/<tr>\s*<td>\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}<\/td>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
const query = (filters: Record<string, string>) => new URLSearchParams(filters).toString();

/**
 * A partner's policy with a claim the operator reviewed and rejected (two claim.review entries, under
 * the operator's test key), then cancelled by the partner (policy.cancel, under theirs). Claims made
 * through the JSON surface are not audited: the operator's decisions are.
 */
async function partnerWithHistory() {
  const p = await t.partner({ name: `Audit ${crypto.randomUUID().slice(0, 6)}` });
  const policy = await approved(p);
  const claim = await p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Side mirror", amount: 20_000 });
  expect(await operator.run("claim review", { claimNo: claim.claimNo, status: "in_review" })).toMatchObject({ status: "in_review" });
  expect(await operator.run("claim review", { claimNo: claim.claimNo, status: "rejected", rejectionReason: "not_covered", note: "Not covered" })).toMatchObject(
    { status: "rejected" },
  );
  const cancelled = await policy.cancel();
  expect(cancelled.status, cancelled.exctnFdbck?.elbrtn).toBe("c");
  return { p, policy, claimNo: claim.claimNo as string };
}

describe("the audit log's filters", () => {
  test("account, who, what, about what and days select the entries; the count says how many; nothing else shows", async () => {
    const first = await partnerWithHistory();
    const second = await partnerWithHistory();
    const admin = await signedIn(t, operator.portal);

    const page = await admin.get("/admin/audit");
    expect(page.status).toBe(200);
    for (const label of [
      '<label for="f-partner"',
      '<label for="f-actor"',
      '<label for="f-action"',
      '<label for="f-about"',
      '<label for="f-from"',
      '<label for="f-to"',
    ])
      expect(page.text).toContain(label);
    expect(page.text).toMatch(/[\d,]+ entries in all\.|More than 1,000 entries\./); // the whole suite writes more than a thousand
    // The account's choices name partners, the action's are words.
    expect(page.text).toContain(`>${first.p.name}</option>`);
    expect(page.text).toContain('<option value="policy.cancel">Policy cancelled</option>');

    const mine = await admin.get(`/admin/audit?${query({ partner: first.p.partnerId })}`);
    // The claim, the cancellation (and the approval, when the product waits for one).
    const rows = tableRows(mine.text);
    const n = rows.length;
    expect(n).toBeGreaterThanOrEqual(3);
    expect(rows.every((row) => row.includes(first.p.name))).toBe(true);
    expect(mine.text).not.toContain(second.claimNo);
    expect(mine.text).toContain(`${n} entries match these filters.`);
    expect(mine.text).toContain(`value="${first.p.partnerId}" selected`);

    const cancelled = await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, action: "policy.cancel" })}`);
    expect(tableRows(cancelled.text)).toHaveLength(1);
    expect(cancelled.text).toContain("1 entry matches these filters.");
    expect(tableRows(cancelled.text)[0]).toContain("Policy cancelled");

    const claims = await admin.get(`/admin/audit?${query({ partner: second.p.partnerId, about: "claim" })}`);
    expect(tableRows(claims.text).map((row) => /Claim reviewed/.exec(row)?.[0])).toEqual(["Claim reviewed", "Claim reviewed"]);
    expect(tableRows(claims.text).every((row) => row.includes(second.claimNo))).toBe(true);

    // Who: part of the actor, in any case ("API key test" for the test key).
    const byKey = await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, actor: "api KEY" })}`);
    expect(tableRows(byKey.text)).toHaveLength(n);
    const byNobody = await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, actor: "nobody@example.com" })}`);
    expect(tableRows(byNobody.text)).toHaveLength(0);
    expect(byNobody.text).toContain("No entries match these filters.");
    // A "%" is a letter, not a wildcard.
    expect(tableRows((await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, actor: "%" })}`)).text)).toHaveLength(0);

    // Days, in Nigerian time, both included.
    expect(tableRows((await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, from: watDate(), to: watDate() })}`)).text)).toHaveLength(n);
    expect(tableRows((await admin.get(`/admin/audit?${query({ partner: first.p.partnerId, from: watDate(1) })}`)).text)).toHaveLength(0);
  });

  test("a refused day is said beside its input, with a 400 and no rows; an unknown choice is dropped", async () => {
    const admin = await signedIn(t, operator.portal);
    const bad = await admin.get("/admin/audit?from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-from-error"');
    expect(bad.text).toContain('value="yesterday"');
    expect(tableRows(bad.text)).toHaveLength(0);
    const backwards = await admin.get(`/admin/audit?from=${watDate()}&to=${watDate(-3)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain('id="f-to-error"');
    const unknown = await admin.get("/admin/audit?action=policy.explode&about=spaceship&partner=nope");
    expect(unknown.status).toBe(200);
    expect(unknown.text).toMatch(/[\d,]+ entries in all\.|More than 1,000 entries\./);
    expect((await admin.get("/admin/audit.csv?to=2026-13-40")).status).toBe(400);
  });

  test("the CSV is exactly what the filters select, and the page's download link carries them", async () => {
    const { p, claimNo, policy } = await partnerWithHistory();
    const admin = await signedIn(t, operator.portal);
    const filters = query({ partner: p.partnerId, about: "claim" });
    const page = await admin.get(`/admin/audit?${filters}`);
    expect(page.text).toContain(`href="/admin/audit.csv?${filters}"`);
    const csv = recordsOf((await admin.get(`/admin/audit.csv?${filters}`)).text);
    expect(csv[0]).toBe("When (WAT),Who,Account,Action,About,Subject,Details");
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain(`,API key test,${p.name},Claim reviewed,Claim,${claimNo},`);
    expect(csv[1]).toContain("Status: rejected");
    expect(csv[1]).toContain("Note: Not covered");
    expect(csv[2]).toContain(`,API key test,${p.name},Claim reviewed,Claim,${claimNo},Status: in review`);
    const everything = recordsOf((await admin.get(`/admin/audit.csv?${query({ partner: p.partnerId })}`)).text);
    expect(everything).toHaveLength(tableRows((await admin.get(`/admin/audit?${query({ partner: p.partnerId })}`)).text).length + 1);
    expect(everything.some((line) => line.includes("Policy cancelled") && line.includes(policy.row.policyNo ?? policy.reference))).toBe(true);
  });
});

describe("the audit log's subjects", () => {
  test("a policy by its number, linked to its page; a claim linked to its page; the details in words", async () => {
    const { p, policy, claimNo } = await partnerWithHistory();
    const admin = await signedIn(t, operator.portal);
    const page = await admin.get(`/admin/audit?${query({ partner: p.partnerId })}`);
    const rows = tableRows(page.text);
    const cancelled = rows.find((row) => row.includes("Policy cancelled"))!;
    const claimed = rows.find((row) => row.includes("Claim reviewed"))!;
    expect(cancelled).toContain(`<a href="/admin/policies/${policy.row.id}">${policy.row.policyNo ?? policy.reference}</a>`);
    expect(cancelled).toContain("Policy ");
    expect(cancelled).toContain("Reason: ");
    expect(claimed).toContain(`<a href="/admin/claims/${claimNo}">${claimNo}</a>`);
    expect(claimed).toContain("Status: rejected");
    // Every link opens.
    for (const href of [`/admin/policies/${policy.row.id}`, `/admin/claims/${claimNo}`]) expect((await admin.get(href)).status).toBe(200);
  });

  test("a change of a policy names its fields by their labels, never the wire names", async () => {
    const p = await t.partner();
    const at = new Date();
    await db.insert(auditLog).values({
      id: crypto.randomUUID(),
      at,
      actorUserId: null,
      actor: "API key test",
      partnerId: p.partnerId,
      action: "policy.endorse",
      subject: `ref-${crypto.randomUUID().slice(0, 8)}`,
      details: { reference: "chg-1", status: "applied", fields: ["model", "uIdnt"], premiumChangeKobo: 0 },
    });
    const admin = await signedIn(t, operator.portal);
    const row = tableRows((await admin.get(`/admin/audit?${query({ partner: p.partnerId })}`)).text)[0]!;
    expect(row).toContain("Policy changed");
    expect(row).toContain("Premium change: ₦0.00");
    expect(row).not.toMatch(/\buIdnt\b|premiumChangeKobo|fields:/);
    await db.delete(auditLog).where(sql`${auditLog.partnerId} = ${p.partnerId}`);
  });

  test("partners cannot open the log or its CSV", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    expect((await b.get("/admin/audit")).status).toBe(403);
    expect((await b.get("/admin/audit.csv")).status).toBe(403);
  });
});
