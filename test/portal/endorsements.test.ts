/** Changing a policy from the portal (issue 16, endorsements): the fields its product lets change, the price before confirming, the history, the operator's review. */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { policies } from "../../src/modules/policies/schema";
import { testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp();
const operator = await t.partner({ admin: true });

async function approvedPolicy(code: string, label: "test" | "live" = "test") {
  const p = await t.partner();
  if (label === "live") await p.run("wallet topup", { amount: 10_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
  const c = productCases[code]!;
  const consumer = (await p.run("prfl entity", fullConsumer(), label)).id;
  if (c.quote) await p.run(`dump ipck_${c.code}*PRMM`, c.quote, label);
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(c), label);
  const address = `entt_${consumer}|insr_${c.code}-${answer.id}`;
  if (answer.status === "p") await operator.run(`appr ${address}`, undefined, label);
  const [row] = await t.database.db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, answer.id)));
  return { p, reference: answer.id as string, row: row!, status: () => p.run(`dump ${address}*STATUS`, undefined, label) };
}

describe("changing a policy in the portal", () => {
  test("the form offers the product's changeable details filled in; the price is shown before confirming; the policy page shows version 2", async () => {
    const { p, reference, row, status } = await approvedPolicy("vhcl-tprt-1111");
    const b = await signedIn(t, p.portal);
    const detail = await b.get(`/portal/policies/${reference}`);
    expect(detail.text).toContain(`href="/portal/policies/${reference}/change"`);
    const form = await b.get(`/portal/policies/${reference}/change`);
    expect(form.status).toBe(200);
    expect(form.text).toContain("Registration plate");
    expect(form.text).toContain(`value="${row.facts.rgstrtId}"`);
    expect(form.text).not.toContain("Chassis");

    const same = await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.rgstrtId": String(row.facts.rgstrtId), step: "preview" });
    expect(same.status).toBe(400);
    expect(same.text).toContain("Change at least one detail");
    const bad = await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.rgstrtId": "!!", step: "preview" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Registration plate");
    expect(bad.text).not.toContain("seed.");
    expect(bad.text).not.toContain("rgstrtId must");

    const preview = await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.rgstrtId": "LND456XY", step: "preview" });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(`Registration plate: ${row.facts.rgstrtId} → LND456XY`);
    expect(preview.text).toContain("No change");
    expect(preview.text).toContain("certificate version 2");
    expect(preview.text).toContain("Confirm the change");
    expect((await status()).version).toBeUndefined();

    const done = await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.rgstrtId": "LND456XY", step: "confirm" });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/portal/policies/${reference}`);
    const page = await b.get(done.location!);
    expect(page.text).toContain("Version 2");
    expect(page.text).toContain(`Registration plate: ${row.facts.rgstrtId} → LND456XY`);
    expect((await status()).version).toBe(2);
  });

  test("a product without mid-term changes says so in words, with no form", async () => {
    const { p, reference } = await approvedPolicy("mrnn-stnd-1111");
    const b = await signedIn(t, p.portal);
    expect((await b.get(`/portal/policies/${reference}`)).text).not.toContain(`/portal/policies/${reference}/change`);
    const page = await b.get(`/portal/policies/${reference}/change`);
    expect(page.text).toContain("takes no mid-term changes");
    expect(page.text).not.toContain("Confirm the change");
  });

  test("a reviewed change waits; the operator declines it saying why, or approves it; the partner's page shows each", async () => {
    const { p, reference, row } = await approvedPolicy("vhcl-cmpr-1111", "live");
    await p.run("set env_live", undefined, "legacy");
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/policies/${reference}/change`);
    const preview = await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.vhclValueForInsrnc": "6000000", step: "preview" });
    expect(preview.text).toContain("An underwriter reviews it");
    expect(preview.text).toMatch(/₦[\d,.]+ from your wallet/);
    await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.vhclValueForInsrnc": "6000000", step: "confirm" });
    expect((await b.get(`/portal/policies/${reference}`)).text).toContain("Waiting for review");

    const admin = await signedIn(t, operator.portal);
    const adminPage = await admin.get(`/admin/policies/${row.id}`);
    expect(adminPage.text).toContain(`href="/admin/policies/${row.id}/change"`);
    const desk = await admin.get(`/admin/policies/${row.id}/change`);
    expect(desk.text).toContain("Approve the change");
    expect(desk.text).toContain("Insured value");
    const noReason = await admin.post(`/admin/policies/${row.id}/change/decline`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain("Say why the change is declined");
    const declined = await admin.post(`/admin/policies/${row.id}/change/decline`, { note: "A valuation report is needed" });
    expect(declined.status).toBe(303);
    expect((await b.get(`/portal/policies/${reference}`)).text).toContain("Declined: A valuation report is needed");

    await b.get(`/portal/policies/${reference}/change`);
    await b.post(`/portal/policies/${reference}/change`, { "addtnlFact.vhclValueForInsrnc": "5500000", step: "confirm" });
    await admin.get(`/admin/policies/${row.id}/change`);
    expect((await admin.post(`/admin/policies/${row.id}/change/approve`, {})).status).toBe(303);
    expect((await b.get(`/portal/policies/${reference}`)).text).toContain("Version 2");
  });
});
