/**
 * Concurrent repeats (issue 34, docs/reliability.md "Concurrent repeats"): for every write under a
 * partner reference, ten identical requests at the same moment all get the first answer and store
 * once, and ten different requests under one reference store one and refuse the others with a 409
 * naming what differs. Through `POST /` and the portal's forms, on the suite's engine.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { policyCancellations, policyEndorsements, policyReinstatements } from "../src/modules/lifecycle/schema";
import { policies } from "../src/modules/policies/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved, endingIn, livePartner, ledgerAgrees, eventsOf } = lifecycleHelpers(t, operator);

/** Ten requests sent at once. */
const tenAtOnce = <T>(request: (i: number) => Promise<T>) => Promise.all(Array.from({ length: 10 }, (_, i) => request(i)));

/** Every answer is the first one, a success (the same ids, amounts and times). */
function allTheFirst(answers: any[]) {
  expect(answers[0].exctnFdbck).toEqual({ id: 75, id_v4: 200 });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  return answers[0];
}

/** Exactly one success; every other answer a 409 whose words contain each of `words`. */
function oneSucceeds(answers: any[], ...words: string[]) {
  const won = answers.filter((a) => a.exctnFdbck.id === 75);
  expect(won).toHaveLength(1);
  for (const lost of answers.filter((a) => a.exctnFdbck.id !== 75)) {
    expect(lost.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    for (const word of words) expect(lost.exctnFdbck.elbrtn).toContain(word);
  }
  return won[0];
}

/** How many rows of `table` match. */
const rows = async (table: PgTable, where: SQL | undefined) => (await db.select().from(table).where(where)).length;

describe("after issuance: cncl, rinst, rnew, ndrs", () => {
  test("cncl: ten identical cancellations answer the first (one cancellation, one refund, one event); ten under one reference with other notes: one, and nine 409s", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    const seed = { id: crypto.randomUUID(), reason: "insured_request" };
    const first = allTheFirst(await tenAtOnce(() => p.run(`cncl ${policy.address}`, seed, "live")));
    expect(first).toMatchObject({ id: policy.reference, status: "c", cancellation: { id: seed.id, refundBasis: "cooling-off" } });
    expect(await rows(policyCancellations, eq(policyCancellations.policyId, policy.row.id))).toBe(1);
    expect(await rows(walletEntries, and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "refund")))).toBe(1);
    expect(await eventsOf(p.partnerId, "policy.cancelled")).toHaveLength(1);
    await ledgerAgrees(p.partnerId);

    const other = await approved(p, "allr-stnd-1111", "live");
    const id = crypto.randomUUID();
    const answers = await tenAtOnce((i) => p.run(`cncl ${other.address}`, { id, reason: "other", note: `note ${i}` }, "live"));
    oneSucceeds(answers, `seed.id ${id} was already used to cancel policy ${other.reference}, with another note`);
    expect(await rows(policyCancellations, eq(policyCancellations.policyId, other.row.id))).toBe(1);
    await ledgerAgrees(p.partnerId);
  });

  test("rinst: ten identical reinstatements answer the first (the refund paid back once); one reference on ten cancelled policies: one, and nine 409s", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    expect((await policy.cancel()).exctnFdbck.id).toBe(75);
    const seed = { id: crypto.randomUUID() };
    const first = allTheFirst(await tenAtOnce(() => p.run(`rinst ${policy.address}`, seed, "live")));
    expect(first).toMatchObject({ id: policy.reference, status: "a", reinstatement: { id: seed.id } });
    expect(await rows(policyReinstatements, eq(policyReinstatements.policyId, policy.row.id))).toBe(1);
    expect(await eventsOf(p.partnerId, "policy.reinstated")).toHaveLength(1);
    await ledgerAgrees(p.partnerId);

    const cancelled = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const one = await approved(p);
        expect((await one.cancel()).exctnFdbck.id).toBe(75);
        return one;
      }),
    );
    const id = crypto.randomUUID();
    const answers = await tenAtOnce((i) => p.run(`rinst ${cancelled[i]!.address}`, { id }));
    oneSucceeds(answers, `seed.id ${id} was already used to reinstate policy`);
    expect(await rows(policyReinstatements, and(eq(policyReinstatements.partnerId, p.partnerId), eq(policyReinstatements.reference, id)))).toBe(1);
  });

  test("rnew: ten identical renewals answer the first (one new policy, one premium); one reference on ten policies, and ten references on one: one each, and nine 409s", async () => {
    const p = await livePartner();
    const policy = await approved(p, "allr-stnd-1111", "live");
    await endingIn(policy.row, 20);
    const before = await ledgerAgrees(p.partnerId);
    const seed = { id: crypto.randomUUID() };
    const first = allTheFirst(await tenAtOnce(() => p.run(`rnew ${policy.address}`, seed, "live")));
    expect(first).toMatchObject({ id: seed.id, renews: policy.reference, prmm: policy.row.premiumKobo / 100 });
    expect(await rows(policies, eq(policies.renewsPolicyId, policy.row.id))).toBe(1);
    expect(await ledgerAgrees(p.partnerId)).toBe(before - policy.row.premiumKobo);
    expect(await eventsOf(p.partnerId, "policy.renewed")).toHaveLength(1);

    const due = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const one = await approved(p);
        await endingIn(one.row, 20);
        return one;
      }),
    );
    const id = crypto.randomUUID();
    oneSucceeds(await tenAtOnce((i) => p.run(`rnew ${due[i]!.address}`, { id })), `seed.id is already in use: ${id}`);
    expect(await rows(policies, and(eq(policies.partnerId, p.partnerId), eq(policies.reference, id)))).toBe(1);

    const another = await approved(p);
    await endingIn(another.row, 20);
    oneSucceeds(await tenAtOnce(() => p.run(`rnew ${another.address}`, { id: crypto.randomUUID() })), `policy ${another.reference} is already renewed`);
    expect(await rows(policies, eq(policies.renewsPolicyId, another.row.id))).toBe(1);
  });

  test("ndrs: ten identical changes answer the first (one change, one version); ten under one reference with other plates: one, and nine 409s", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const seed = { id: crypto.randomUUID(), addtnlFact: { rgstrtId: "LND456XY" } };
    const first = allTheFirst(await tenAtOnce(() => p.run(`ndrs ${policy.address}`, seed)));
    expect(first).toMatchObject({ id: policy.reference, version: 2, endorsement: { id: seed.id, status: "applied" } });
    expect(await rows(policyEndorsements, eq(policyEndorsements.policyId, policy.row.id))).toBe(1);
    expect(await eventsOf(p.partnerId, "policy.endorsed")).toHaveLength(1);

    const other = await approved(p);
    const id = crypto.randomUUID();
    const answers = await tenAtOnce((i) => p.run(`ndrs ${other.address}`, { id, addtnlFact: { rgstrtId: `LND${100 + i}XY` } }));
    oneSucceeds(answers, `seed.id ${id} was already used to change policy ${other.reference} with other changes`);
    expect(await rows(policyEndorsements, eq(policyEndorsements.policyId, other.row.id))).toBe(1);
  });
});
