/**
 * Concurrent repeats (issue 34, docs/reliability.md "Concurrent repeats"): for every write under a
 * partner reference, ten identical requests at the same moment all get the first answer and store
 * once, and ten different requests under one reference store one and refuse the others with a 409
 * naming what differs. Through `POST /` and the portal's forms, on the suite's engine.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { claims } from "../src/modules/claims/schema";
import { consumers } from "../src/modules/consumers/schema";
import { outboxEvents } from "../src/modules/events/schema";
import { financingPayments, financingPlans } from "../src/modules/financing/schema";
import { walletFundings } from "../src/modules/funding/schema";
import { renewOptedInPolicies } from "../src/modules/lifecycle/renewal";
import { policyReinstatements } from "../src/modules/lifecycle/schema";
import { policies, policyCancellations, policyEndorsements } from "../src/modules/policies/schema";
import { quotes } from "../src/modules/quotes/schema";
import { walletEntries } from "../src/modules/wallet/schema";
import { webhookEndpoints } from "../src/modules/webhooks/schema";
import { type Browser, type PortalResponse, signedIn } from "./portal/browser";
import { vehicleFacts } from "./support/fixtures";
import { individual, PNG_BASE64, type TestPartner, testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { fullConsumer, insureSeed, productCases, watDate } from "./support/policies";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved, endingIn, lapsedPolicy, livePartner, ledgerAgrees, eventsOf } = lifecycleHelpers(t, operator);

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

/** A partner's events that name `reference` (as the payload's `id` or `reference`). */
const eventsNaming = async (p: TestPartner, reference: string) =>
  (await db.select().from(outboxEvents).where(eq(outboxEvents.partnerId, p.partnerId))).filter((e) => [e.payload.id, e.payload.reference].includes(reference));

/** A registered consumer of `p` with a quote of `code`, ready to insure. */
async function consumerFor(p: TestPartner, code: string, label: "test" | "live" = "test") {
  const consumer = (await p.run("prfl entity", fullConsumer(), label)).id as string;
  expect((await p.run(`dump ipck_${code}*PRMM`, productCases[code]!.quote, label)).exctnFdbck.id).toBe(75);
  return consumer;
}

describe("consumers: prfl entity (the e-mail is the reference: spec 2.3 rule 2)", () => {
  test("ten identical registrations at once, with and without documents: one consumer, every answer its id", async () => {
    for (const seed of [individual(), individual({ socialID: { type: "nidd", id: "12345678901", image: PNG_BASE64 } })]) {
      const p = await t.partner();
      const first = allTheFirst(await tenAtOnce(() => p.run("prfl entity", seed)));
      expect(await rows(consumers, eq(consumers.partnerId, p.partnerId))).toBe(1);
      expect((await db.select().from(consumers).where(eq(consumers.id, first.id_uuid)))[0]!.email).toBe(seed.eMail);
    }
  });

  test("ten different registrations of one e-mail at once: one consumer, each answered its id (the given fields update it)", async () => {
    const p = await t.partner();
    const eMail = individual().eMail;
    const answers = await tenAtOnce((i) => p.run("prfl entity", individual({ eMail, name: { first: `Ada${i}`, last: "Okafor" } })));
    const first = allTheFirst(answers);
    const [row] = await db.select().from(consumers).where(eq(consumers.partnerId, p.partnerId));
    expect(row!.id).toBe(first.id_uuid);
    expect((row!.profile.name as { first: string }).first).toMatch(/^Ada\d$/);
  });
});

describe("issuance: insure (a reused seed.id is refused, spec 2.5 rule 2)", () => {
  for (const { label, code } of [
    { label: "test", code: "vhcl-tprt-1111" },
    { label: "live", code: "phnn-flx1-1111" },
    { label: "live", code: "mexx-stnd-1111" },
  ] as const)
    test(`${label} ${code}: ten identical and ten different requests under one seed.id: one policy (one event${label === "live" ? ", one premium" : ""}) and nine 409s each`, async () => {
      const p = label === "live" ? await livePartner() : await t.partner();
      const consumer = await consumerFor(p, code, label);
      const c = productCases[code]!;
      const seed = insureSeed(c);
      const first = oneSucceeds(await tenAtOnce(() => p.run(`entt_${consumer}: insure`, seed, label)), `seed.id is already in use: ${seed.id}`);
      expect(first.id).toBe(seed.id);
      const id = crypto.randomUUID();
      oneSucceeds(await tenAtOnce(() => p.run(`entt_${consumer}: insure`, insureSeed(c, { id }), label)), `seed.id is already in use: ${id}`);
      for (const reference of [seed.id as string, id]) {
        expect(await rows(policies, and(eq(policies.partnerId, p.partnerId), eq(policies.reference, reference)))).toBe(1);
        expect(await eventsNaming(p, reference)).toHaveLength(1);
      }
      const premiums = await rows(walletEntries, and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.kind, "premium")));
      expect(premiums).toBe(label === "live" ? 2 : 0);
      await ledgerAgrees(p.partnerId);
    });
});

describe("funding: wallet topup", () => {
  for (const label of ["test", "live"] as const)
    test(`${label}: ten identical top-ups answer the first (one funding, one credit, one event); ten amounts under one reference: one, and nine 409s`, async () => {
      const p = await t.partner();
      const reference = `topup-${crypto.randomUUID().slice(0, 8)}`;
      const first = allTheFirst(await tenAtOnce(() => p.run("wallet topup", { amount: 2500.5, reference }, label)));
      expect(first).toMatchObject({ reference, amount: 2500.5, status: "credited", balance: 2500.5 });
      expect(await rows(walletFundings, and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)))).toBe(1);
      expect(await rows(walletEntries, and(eq(walletEntries.partnerId, p.partnerId), eq(walletEntries.reference, reference)))).toBe(label === "live" ? 1 : 0);
      expect(await eventsNaming(p, reference)).toHaveLength(1);

      const other = `topup-${crypto.randomUUID().slice(0, 8)}`;
      oneSucceeds(
        await tenAtOnce((i) => p.run("wallet topup", { amount: 100 + i, reference: other }, label)),
        `seed.reference ${other} was already used for a top-up of`,
      );
      expect(await rows(walletFundings, and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, other)))).toBe(1);
      await ledgerAgrees(p.partnerId);
    });
});

describe("claims: claim submit", () => {
  test("ten identical claims answer the first (one claim, one event); ten amounts under one reference: one, and nine 409s", async () => {
    const p = await t.partner();
    const policy = await approved(p, "phnn-flx1-1111");
    const claim = (amount: number, reference: string) =>
      p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Cracked screen", amount, reference });
    const reference = `clm-${crypto.randomUUID().slice(0, 8)}`;
    const first = allTheFirst(await tenAtOnce(() => claim(20_000, reference)));
    expect(first).toMatchObject({ reference, status: "submitted", amount: 20_000 });
    expect(await rows(claims, and(eq(claims.partnerId, p.partnerId), eq(claims.reference, reference)))).toBe(1);
    expect(await eventsNaming(p, reference)).toHaveLength(1);

    const other = `clm-${crypto.randomUUID().slice(0, 8)}`;
    oneSucceeds(await tenAtOnce((i) => claim(10_000 + i, other)), `seed.reference ${other} was already used for claim`, "another amount");
    expect(await rows(claims, and(eq(claims.partnerId, p.partnerId), eq(claims.reference, other)))).toBe(1);
  });
});

describe("financing: payment financeLoan (one plan per policy) and payment recordInstallment", () => {
  const terms = (policy: string, downPayment = 3000) => ({ policy, downPayment, installments: 4, frequency: "weekly", firstDueDate: watDate(7) });

  test("financeLoan: ten identical plans and ten on other terms for one policy: one plan, and nine 409s naming it", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const first = oneSucceeds(await tenAtOnce(() => p.run("payment financeLoan", terms(policy.reference))), "already has financing plan");
    const other = await approved(p);
    oneSucceeds(await tenAtOnce((i) => p.run("payment financeLoan", terms(other.reference, 1000 + i))), "already has financing plan");
    for (const one of [policy, other]) expect(await rows(financingPlans, eq(financingPlans.policyId, one.row.id))).toBe(1);
    expect(first.policy).toBe(policy.reference);
  });

  test("recordInstallment: ten identical payments answer the first (one payment, one event); ten amounts under one reference: one, and nine 409s", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const plan = await p.run("payment financeLoan", terms(policy.reference));
    expect(plan.exctnFdbck.id).toBe(75);
    const reference = `rcpt-${crypto.randomUUID().slice(0, 8)}`;
    const first = allTheFirst(await tenAtOnce(() => p.run("payment recordInstallment", { planNo: plan.planNo, amount: 1500, reference })));
    expect(first).toMatchObject({ planNo: plan.planNo, reference, amount: 1500 });
    expect(await rows(financingPayments, and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, reference)))).toBe(1);
    expect(await eventsNaming(p, reference)).toHaveLength(1);

    const other = `rcpt-${crypto.randomUUID().slice(0, 8)}`;
    oneSucceeds(
      await tenAtOnce((i) => p.run("payment recordInstallment", { planNo: plan.planNo, amount: 100 + i, reference: other })),
      `seed.reference ${other} was already used for a payment of`,
    );
    expect(await rows(financingPayments, and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, other)))).toBe(1);
  });
});

describe("webhooks: webhook register (the URL is the reference; a repeat is refused: the secret is shown once)", () => {
  test("ten identical registrations and ten with other events for one URL: one endpoint, and nine 409s naming it", async () => {
    const p = await t.partner();
    const url = `http://127.0.0.1:9/hooks/${crypto.randomUUID().slice(0, 8)}`;
    const first = oneSucceeds(
      await tenAtOnce(() => p.run("webhook register", { url, events: ["policy.approved"] })),
      `seed.url is already registered as endpoint`,
    );
    expect(first).toMatchObject({ url, events: ["policy.approved"] });
    const other = `http://127.0.0.1:9/hooks/${crypto.randomUUID().slice(0, 8)}`;
    const events = ["policy.approved", "policy.declined", "claim.updated"];
    oneSucceeds(await tenAtOnce((i) => p.run("webhook register", { url: other, events: [events[i % 3]!] })), "seed.url is already registered as endpoint");
    for (const one of [url, other])
      expect(await rows(webhookEndpoints, and(eq(webhookEndpoints.partnerId, p.partnerId), eq(webhookEndpoints.url, one)))).toBe(1);
  });
});

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

  test("rinst of a lapsed policy: ten identical reinstatements answer the first (the missed installments recorded once)", async () => {
    const p = await livePartner();
    const { policy, planNo } = await lapsedPolicy(p);
    const seed = { id: crypto.randomUUID() };
    const first = allTheFirst(await tenAtOnce(() => p.run(`rinst ${policy.address}`, seed, "live")));
    expect(first).toMatchObject({ status: "a", reinstatement: { id: seed.id, paid: 9000 } });
    expect(await rows(policyReinstatements, eq(policyReinstatements.policyId, policy.row.id))).toBe(1);
    expect(await rows(financingPayments, and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, `RINST-${seed.id}`)))).toBe(1);
    expect(await p.run("payment status", { planNo }, "live")).toMatchObject({ status: "active", outstanding: 3000 });
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

describe("automatic renewal: rnew …*AUTO and its run", () => {
  test("ten identical opt-ins at once answer alike; two runs at once renew once, and neither says the renewal failed", async () => {
    const p = await livePartner();
    const policy = await approved(p, "phnn-flx1-1111", "live");
    allTheFirst(await tenAtOnce(() => p.run(`rnew ${policy.address}*AUTO`, { enabled: true }, "live")));
    await endingIn(policy.row, 5);
    const before = await ledgerAgrees(p.partnerId);
    const runs = await Promise.all([renewOptedInPolicies(db, new Date(), 0), renewOptedInPolicies(db, new Date(), 0)]);
    expect(runs.map((r) => r.renewed).sort()).toEqual([0, 1]);
    expect(await eventsOf(p.partnerId, "policy.renewal_failed")).toHaveLength(0);
    const [renewal, ...more] = await db.select().from(policies).where(eq(policies.renewsPolicyId, policy.row.id));
    expect(more).toHaveLength(0);
    expect(await ledgerAgrees(p.partnerId)).toBe(before - renewal!.premiumKobo);
  });
});

describe("writes without a reference: the second of a pair finds the first's outcome", () => {
  test("appr, claim withdraw and webhook delete: ten identical requests at once apply once; nine are refused naming the state they found", async () => {
    const p = await livePartner();
    const consumer = await consumerFor(p, "vhcl-cmpr-1111", "live");
    const pending = await p.run(`entt_${consumer}: insure`, insureSeed(productCases["vhcl-cmpr-1111"]!), "live");
    expect(pending.status).toBe("p");
    const address = `entt_${consumer}|insr_vhcl-cmpr-1111-${pending.id}`;
    oneSucceeds(await tenAtOnce(() => operator.run(`appr ${address}`, undefined, "live")), "is already approved: only pending policies can be reviewed");
    expect(await eventsNaming(p, pending.id)).toHaveLength(2);

    const policy = await approved(p, "phnn-flx1-1111");
    const claim = await p.run("claim submit", { policy: policy.reference, incidentDate: watDate(), description: "Cracked screen", amount: 20_000 });
    const withdrawals = await tenAtOnce(() => p.run("claim withdraw", { claimNo: claim.claimNo }));
    const withdrawn = withdrawals.filter((a) => a.exctnFdbck.id === 75);
    expect(withdrawn).toHaveLength(1);
    for (const refused of withdrawals.filter((a) => a.exctnFdbck.id !== 75)) expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 409 });
    expect((await eventsOf(p.partnerId, "claim.updated")).filter((e) => e.payload.claimNo === claim.claimNo)).toHaveLength(1);

    const endpoint = await p.run("webhook register", { url: `http://127.0.0.1:9/hooks/${crypto.randomUUID().slice(0, 8)}` });
    const deletions = await tenAtOnce(() => p.run("webhook delete", { endpointId: endpoint.endpointId }));
    expect(deletions.filter((a) => a.exctnFdbck.id === 75)).toHaveLength(1);
    for (const refused of deletions.filter((a) => a.exctnFdbck.id !== 75)) expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 404 });
  });
});

/** The reference a lifecycle form was drawn with (its hidden `id`). */
const formReference = (page: PortalResponse) => /<input type="hidden" name="id" value="([^"]+)"/.exec(page.text)![1]!;

/** Ten form posts at once from one signed-in browser. */
const tenPosts = (b: Browser, path: string, fields: (i: number) => Record<string, string>) => tenAtOnce((i) => b.post(path, fields(i)));

/** Every answer is a redirect to the same page. */
function allRedirectTo(answers: PortalResponse[], location: string) {
  for (const answer of answers) expect({ status: answer.status, location: answer.location }).toEqual({ status: 303, location });
}

/** Exactly one redirect; every other answer the form again with the refusal (`status`), in words containing each of `words`. */
function oneRedirects(answers: PortalResponse[], status: number, ...words: string[]) {
  const done = answers.filter((a) => a.status === 303);
  expect(done).toHaveLength(1);
  for (const refused of answers.filter((a) => a.status !== 303)) {
    expect(refused.status).toBe(status);
    for (const word of words) expect(refused.text).toContain(word);
  }
  return done[0]!;
}

describe("the portal's forms", () => {
  test("cancel: the form's reference makes ten identical posts one cancellation, each sent to the policy; ten with other notes: one, and nine refusals", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const b = await signedIn(t, p.portal);
    const id = formReference(await b.get(`/portal/policies/${policy.reference}/cancel`));
    allRedirectTo(
      await tenPosts(b, `/portal/policies/${policy.reference}/cancel`, () => ({ id, effectiveDate: watDate(), reason: "insured_request" })),
      `/portal/policies/${policy.reference}`,
    );
    expect(await rows(policyCancellations, eq(policyCancellations.policyId, policy.row.id))).toBe(1);
    expect((await policy.status()).status).toBe("c");

    const other = await approved(p);
    const otherId = formReference(await b.get(`/portal/policies/${other.reference}/cancel`));
    const answers = await tenPosts(b, `/portal/policies/${other.reference}/cancel`, (i) => ({ id: otherId, reason: "other", note: `Note ${i}` }));
    oneRedirects(answers, 409, `was already used to cancel policy ${other.reference}, with another note`);
    expect(await rows(policyCancellations, eq(policyCancellations.policyId, other.row.id))).toBe(1);
  });

  test("the operator's cancel: ten identical posts of the desk's form are one cancellation, each sent to the policy", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const admin = await signedIn(t, operator.portal);
    const id = formReference(await admin.get(`/admin/policies/${policy.row.id}/cancel`));
    allRedirectTo(
      await tenPosts(admin, `/admin/policies/${policy.row.id}/cancel`, () => ({
        id,
        effectiveDate: watDate(),
        reason: "misrepresentation",
        note: "Undeclared",
      })),
      `/admin/policies/${policy.row.id}`,
    );
    expect(await rows(policyCancellations, eq(policyCancellations.policyId, policy.row.id))).toBe(1);
  });

  test("reinstate: ten identical confirmations are one reinstatement; the page's reference on ten other policies' pages: one, and nine refusals", async () => {
    const p = await t.partner();
    const cancelled = await Promise.all(
      Array.from({ length: 11 }, async () => {
        const one = await approved(p);
        expect((await one.cancel()).exctnFdbck.id).toBe(75);
        return one;
      }),
    );
    const [policy, ...others] = cancelled as [(typeof cancelled)[0], ...typeof cancelled];
    const b = await signedIn(t, p.portal);
    const id = formReference(await b.get(`/portal/policies/${policy.reference}/reinstate`));
    allRedirectTo(await tenPosts(b, `/portal/policies/${policy.reference}/reinstate`, () => ({ id })), `/portal/policies/${policy.reference}`);
    expect(await rows(policyReinstatements, eq(policyReinstatements.policyId, policy.row.id))).toBe(1);

    const otherId = formReference(await b.get(`/portal/policies/${others[0]!.reference}/reinstate`));
    oneRedirects(
      await tenAtOnce((i) => b.post(`/portal/policies/${others[i]!.reference}/reinstate`, { id: otherId })),
      409,
      `${otherId} was already used to reinstate policy`,
    );
    expect(await rows(policyReinstatements, and(eq(policyReinstatements.partnerId, p.partnerId), eq(policyReinstatements.reference, otherId)))).toBe(1);
  });

  test("renew: ten identical confirmations are one renewal, each sent to it; the page's reference on ten other policies' pages: one, and nine refusals", async () => {
    const p = await t.partner();
    const due = await Promise.all(
      Array.from({ length: 11 }, async () => {
        const one = await approved(p);
        await endingIn(one.row, 20);
        return one;
      }),
    );
    const [policy, ...others] = due as [(typeof due)[0], ...typeof due];
    const b = await signedIn(t, p.portal);
    const id = formReference(await b.get(`/portal/policies/${policy.reference}/renew`));
    allRedirectTo(await tenPosts(b, `/portal/policies/${policy.reference}/renew`, () => ({ id })), `/portal/policies/${id}`);
    expect(await rows(policies, eq(policies.renewsPolicyId, policy.row.id))).toBe(1);

    const otherId = formReference(await b.get(`/portal/policies/${others[0]!.reference}/renew`));
    oneRedirects(
      await tenAtOnce((i) => b.post(`/portal/policies/${others[i]!.reference}/renew`, { id: otherId })),
      409,
      `${otherId} identifies an earlier policy`,
    );
    expect(await rows(policies, and(eq(policies.partnerId, p.partnerId), eq(policies.reference, otherId)))).toBe(1);
  });

  test("change: the reference kept through the preview makes ten identical confirmations one change; ten other plates under it: one, and nine refusals", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const b = await signedIn(t, p.portal);
    const path = `/portal/policies/${policy.reference}/change`;
    const drawn = formReference(await b.get(path));
    const id = formReference(await b.post(path, { id: drawn, "addtnlFact.rgstrtId": "LND456XY", step: "preview" }));
    expect(id).toBe(drawn);
    allRedirectTo(await tenPosts(b, path, () => ({ id, "addtnlFact.rgstrtId": "LND456XY", step: "confirm" })), `/portal/policies/${policy.reference}`);
    expect(await rows(policyEndorsements, eq(policyEndorsements.policyId, policy.row.id))).toBe(1);

    const otherId = formReference(await b.get(path));
    oneRedirects(
      await tenPosts(b, path, (i) => ({ id: otherId, "addtnlFact.rgstrtId": `KJA${100 + i}AA`, step: "confirm" })),
      400,
      `${otherId} was already used to change policy ${policy.reference} with other changes`,
    );
    expect(await rows(policyEndorsements, eq(policyEndorsements.policyId, policy.row.id))).toBe(2);
  });

  test("quote & issue: ten identical posts of the form are one policy (and one quote), each sent to it; ten other vehicles under its reference: one, and nine refusals", async () => {
    const p = await t.partner();
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const b = await signedIn(t, p.portal);
    const form = await b.get(`/portal/quote?product=vhcl-tprt-1111&consumer=${consumer}`);
    const id = /name="id"[^>]* value="([^"]+)"/.exec(form.text)![1]!;
    const vehicle = (plate: string) => ({
      product: "vhcl-tprt-1111",
      consumer,
      id,
      insrncDrtn: "1y",
      ...Object.fromEntries(Object.entries({ ...vehicleFacts(), rgstrtId: plate }).map(([field, value]) => [`addtnlFact.${field}`, value])),
    });
    allRedirectTo(await tenPosts(b, "/portal/quote/issue", () => vehicle("ABC123DE")), `/portal/policies/${id}`);
    expect(await rows(policies, and(eq(policies.partnerId, p.partnerId), eq(policies.reference, id)))).toBe(1);
    expect(await rows(quotes, eq(quotes.partnerId, p.partnerId))).toBe(1);

    const other = crypto.randomUUID();
    oneRedirects(await tenPosts(b, "/portal/quote/issue", (i) => ({ ...vehicle(`KJA${100 + i}AA`), id: other })), 400, "is already in use");
    expect(await rows(policies, eq(policies.partnerId, p.partnerId))).toBe(2);
  });

  test("top-up: ten identical posts credit once, each showing that top-up; ten amounts under one reference: one, and nine refusals", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/wallet");
    const reference = `topup-${crypto.randomUUID().slice(0, 8)}`;
    const answers = await tenPosts(b, "/portal/wallet/topup", () => ({ amount: "2,500.50", reference }));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(reference);
      expect(answer.text).toContain("₦2,500.50");
    }
    expect(await rows(walletFundings, and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, reference)))).toBe(1);

    const other = `topup-${crypto.randomUUID().slice(0, 8)}`;
    const refused = await tenPosts(b, "/portal/wallet/topup", (i) => ({ amount: String(100 + i), reference: other }));
    expect(refused.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of refused.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.text).toContain(`${other} was already used for a top-up of`);
    }
    expect(await rows(walletFundings, and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, other)))).toBe(1);
  });

  test("claim: ten identical posts with a reference are one claim, each sent to it; ten amounts under one reference: one, and nine refusals", async () => {
    const p = await t.partner();
    const policy = await approved(p, "phnn-flx1-1111");
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/claims/new?policy=${policy.reference}`);
    const claim = (amount: string, reference: string) => ({
      policy: policy.reference,
      incidentDate: watDate(),
      description: "Screen cracked",
      amount,
      reference,
    });
    const reference = `clm-${crypto.randomUUID().slice(0, 8)}`;
    const answers = await tenPosts(b, "/portal/claims", () => claim("45,000", reference));
    allRedirectTo(answers, answers[0]!.location!);
    expect(await rows(claims, and(eq(claims.partnerId, p.partnerId), eq(claims.reference, reference)))).toBe(1);

    const other = `clm-${crypto.randomUUID().slice(0, 8)}`;
    oneRedirects(await tenPosts(b, "/portal/claims", (i) => claim(String(1000 + i), other)), 409, `${other} was already used for claim`);
    expect(await rows(claims, and(eq(claims.partnerId, p.partnerId), eq(claims.reference, other)))).toBe(1);

    // The form comes with a reference of its own in the reference input: sent ten times as it came, one claim.
    const drawn = /name="reference"[^>]*value="(CLM-[0-9A-F]{12})"/.exec((await b.get(`/portal/claims/new?policy=${policy.reference}`)).text)?.[1];
    expect(drawn).toBeDefined();
    const sent = await tenPosts(b, "/portal/claims", () => claim("2,000", drawn!));
    allRedirectTo(sent, sent[0]!.location!);
    expect(await rows(claims, and(eq(claims.partnerId, p.partnerId), eq(claims.reference, drawn!)))).toBe(1);
  });

  test("financing: ten identical plans for one policy are one, and nine refusals naming it; ten identical installments are one payment, each showing it", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/financing/new?policy=${policy.reference}`);
    const plan = { policy: policy.reference, downPayment: "3,000", installments: "4", frequency: "weekly", firstDueDate: watDate(), graceDays: "" };
    const created = oneRedirects(await tenPosts(b, "/portal/financing", () => plan), 409, "already has financing plan");
    expect(await rows(financingPlans, eq(financingPlans.policyId, policy.row.id))).toBe(1);

    const planNo = /\/portal\/financing\/(FIN-[^?]+)\?/.exec(created.location!)![1]!;
    const reference = `rcpt-${crypto.randomUUID().slice(0, 8)}`;
    for (const answer of await tenPosts(b, `/portal/financing/${planNo}/installments`, () => ({ amount: "1,500", reference, paidAt: "" }))) {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(reference);
    }
    expect(await rows(financingPayments, and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, reference)))).toBe(1);
    const other = `rcpt-${crypto.randomUUID().slice(0, 8)}`;
    const refused = await tenPosts(b, `/portal/financing/${planNo}/installments`, (i) => ({ amount: String(100 + i), reference: other, paidAt: "" }));
    expect(refused.filter((a) => a.status === 409)).toHaveLength(9);
    expect(await rows(financingPayments, and(eq(financingPayments.partnerId, p.partnerId), eq(financingPayments.reference, other)))).toBe(1);
  });

  test("consumer: ten identical registrations of one e-mail are one consumer, each sent to it", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    const person = {
      class: "h",
      "name.first": "Ngozi",
      "name.last": "Eze",
      phoneNo: "+2348031112222",
      eMail: `ngozi.${crypto.randomUUID().slice(0, 6)}@example.ng`,
    };
    const answers = await tenPosts(b, "/portal/consumers", () => person);
    allRedirectTo(answers, answers[0]!.location!);
    expect(await rows(consumers, eq(consumers.partnerId, p.partnerId))).toBe(1);
  });

  test("webhook: ten identical registrations of one URL are one endpoint, and nine refusals naming it", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/webhooks");
    const url = `http://127.0.0.1:9/hooks/${crypto.randomUUID().slice(0, 8)}`;
    const answers = await tenPosts(b, "/portal/webhooks", () => ({ url, events: "policy.approved" }));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("is already registered as endpoint");
    }
    expect(await rows(webhookEndpoints, and(eq(webhookEndpoints.partnerId, p.partnerId), eq(webhookEndpoints.url, url)))).toBe(1);
  });
});
