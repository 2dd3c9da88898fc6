/**
 * An answer never contradicts what was stored (docs/reliability.md, "What we found"): a request
 * answered 55 must have stored nothing, so no work that can fail may follow the commit of a change.
 *
 * Live marine export cover is approved at once and its answer carries the certificate (spec 3).
 * The certificate used to be rendered and stored after the policy and its premium debit had been
 * committed, so a failure there (here: the database refusing the certificate row, injected with a
 * trigger) answered 55/500 "not completed" for a policy that was stored and paid for. Now the
 * certificate is rendered before and stored inside the issuing transaction: the same failure
 * leaves nothing, and a retry with the same reference succeeds.
 */
import { afterAll, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { certificates } from "../src/modules/certificates/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { policies } from "../src/modules/policies/schema";
import { walletEntries, wallets } from "../src/modules/wallet/schema";
import { testApp } from "./support/harness";
import { fullConsumer, insureSeed, productCases } from "./support/policies";

const t = await testApp();
const db = t.database.db;

/** Make the database refuse certificate rows of one partner's policies, as a full disk or a lost connection would. */
async function refuseCertificatesOf(partnerId: string) {
  await db.execute(
    sql.raw(`create or replace function reliability_refuse_certificate() returns trigger language plpgsql as $$
begin
  if exists (select 1 from policies where id = new.policy_id and partner_id = '${partnerId}') then
    raise exception 'certificate storage refused (fault injected by test/reliability-commit.test.ts)';
  end if;
  return new;
end $$`),
  );
  await db.execute(
    sql.raw(`create trigger reliability_refuse_certificate before insert on certificates for each row execute function reliability_refuse_certificate()`),
  );
}
async function allowCertificates() {
  await db.execute(sql.raw(`drop trigger if exists reliability_refuse_certificate on certificates`));
  await db.execute(sql.raw(`drop function if exists reliability_refuse_certificate()`));
}
afterAll(allowCertificates);

test("a live policy approved at once: a failure storing its certificate answers 55 and leaves nothing; the retry succeeds", async () => {
  const p = await t.partner();
  const consumer = await p.run("prfl entity", fullConsumer());
  const c = productCases["mexx-stnd-1111"]!;
  expect((await p.run(`dump ipck_${c.code}*PRMM`, c.quote, "live")).exctnFdbck.id).toBe(75);
  expect((await p.run("wallet topup", { amount: 1_000_000, reference: "commit-funding" }, "live")).exctnFdbck.id).toBe(75);
  const seed = insureSeed(c);
  const stored = async () => ({
    policies: (
      await db
        .select()
        .from(policies)
        .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, seed.id)))
    ).length,
    debits: (
      await db
        .select()
        .from(walletEntries)
        .where(and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "premium")))
    ).length,
    balance: (await db.select().from(wallets).where(eq(wallets.partnerId, p.partnerId)))[0]!.balanceKobo,
    events: (
      await db
        .select()
        .from(outboxEvents)
        .where(and(eq(outboxEvents.partnerId, p.partnerId), sql`${outboxEvents.type} like 'policy.%'`))
    ).length,
  });

  await refuseCertificatesOf(p.partnerId);
  let refused: any;
  try {
    refused = await p.run(`entt_${consumer.id}: insure`, seed, "live");
  } finally {
    await allowCertificates();
  }
  expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 500 });
  expect(await stored()).toEqual({ policies: 0, debits: 0, balance: 1_000_000_00, events: 0 });

  // The partner retries the same request: now it is stored once, paid once, with its certificate.
  const issued = await p.run(`entt_${consumer.id}: insure`, seed, "live");
  expect(issued).toMatchObject({ id: seed.id, status: "a", crtfctType: "docx", exctnFdbck: { id: 75, id_v4: 200 } });
  expect(Buffer.from(issued.crtfct, "base64").subarray(0, 2).toString()).toBe("PK");
  const after = await stored();
  expect(after).toMatchObject({ policies: 1, debits: 1, events: 1 });
  expect(after.balance).toBeLessThan(1_000_000_00);
  const [policy] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, seed.id)));
  // The certificate in the answer is the one stored (served again by every later download).
  const [certificate] = await db.select().from(certificates).where(eq(certificates.policyId, policy!.id));
  expect(Buffer.from(certificate!.content).equals(Buffer.from(issued.crtfct, "base64"))).toBe(true);
}, 30_000);
