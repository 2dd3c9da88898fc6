/**
 * Tenant isolation on POST /: partner A, with each of its keys, aims every command of the registry
 * at partner B's records. A is refused (or served only its own records), is shown nothing of B's,
 * and nothing that belongs to B changes (every row of B in every table, compared before and after).
 * The cases are keyed by the registry's grammars: a command added without a case fails here.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { commandRegistry } from "../../src/assembly/commands";
import { partnerStatement } from "../../src/modules/commissions/service";
import { wireStatement } from "../../src/modules/commissions/wire";
import { currentWatMonth } from "../../src/modules/enrichment/service";
import type { KeyLabel } from "../../src/modules/partners/service";
import type { TestPartner } from "../support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "../support/policies";
import { startVerificationService } from "../support/verification-service";
import { expectUnchanged, leaksIn, snapshot, type World, world } from "./world";

const registry = await startVerificationService();
afterAll(() => registry.stop());
let w: World;
beforeAll(async () => {
  w = await world({ NIID_URL: registry.url, NIID_TIMEOUT_MS: 10_000 });
}, 60_000);

const LABELS: KeyLabel[] = ["test", "live", "legacy"];

interface Attempt {
  answer: any;
  feedback: { id: number; id_v4: number; elbrtn?: string };
}

/** A runs a command with `label`; the answer must show nothing of B that A did not send itself. */
async function attack(label: KeyLabel, cmmnd: string, seed?: unknown, who: TestPartner = w.a): Promise<Attempt> {
  const envelope = who.envelope(cmmnd, seed, label);
  const answer = await w.t.post(envelope);
  expect({ cmmnd, leaks: leaksIn(JSON.stringify(answer), w.markers, JSON.stringify(envelope)) }).toEqual({ cmmnd, leaks: [] });
  return { answer, feedback: answer.exctnFdbck };
}

const refused = (attempt: Attempt, status: number) => expect(attempt.feedback).toMatchObject({ id: 55, id_v4: status });
const answered = (attempt: Attempt) => expect(attempt.feedback).toEqual({ id: 75, id_v4: 200 });
const listed = (attempt: Attempt, key = "list") => {
  answered(attempt);
  expect(Array.isArray(attempt.answer[key])).toBe(true);
};

/** What A does with each command against B; `label` is A's key. Each case asserts A's answer. */
const cases: Record<string, (label: KeyLabel) => Promise<void>> = {
  "prfl entity": async (label) => {
    answered(await attack(label, "prfl entity", fullConsumer()));
    // B's consumer's e-mail makes the caller's own consumer; B's is not updated (the snapshot checks).
    // (A partner of its own, so A's lists stay free of B's e-mail for the other cases.)
    const mine = await attack(
      label,
      "prfl entity",
      { ...fullConsumer(), eMail: w.b.consumer.email, name: { first: "Mallory", last: "Attacker" } },
      await w.t.partner(),
    );
    answered(mine);
    expect(mine.answer.id).not.toBe(w.b.consumer.id);
  },
  "dump ipck_<product_code>*PRMM": async (label) => {
    answered(await attack(label, "dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" }));
  },
  "dump entt_*CSTMRS": async (label) => listed(await attack(label, "dump entt_*CSTMRS", { limit: 100 })),
  "dump entt_*CSTMRS_ADMIN": async (label) => refused(await attack(label, "dump entt_*CSTMRS_ADMIN"), 403),
  "dump hlth_*HSPTLS": async (label) => listed(await attack(label, "dump hlth_*HSPTLS")),
  "set env_live": async (label) => answered(await attack(label, "set env_live")),
  "set env_test": async (label) => answered(await attack(label, "set env_test")),
  "entt_<consumer_id>: insure": async (label) => {
    const c = productCases["vhcl-tprt-1111"]!;
    await attack(label, `dump ipck_${c.code}*PRMM`, c.quote);
    // B's consumer, by either id form: not found for A.
    for (const consumerId of [w.b.consumer.id, w.b.consumer.uuid]) refused(await attack(label, `entt_${consumerId}: insure`, insureSeed(c)), 409);
    await attack(label, "wallet topup", { amount: 100_000, reference: `a-fund-${crypto.randomUUID()}` });
    const own = (await attack(label, "prfl entity", fullConsumer())).answer.id;
    answered(await attack(label, `entt_${own}: insure`, insureSeed(c)));
    // B's transaction reference on the caller's own consumer is the caller's own policy: B's stays B's.
    const other = await w.t.partner();
    await w.t.post(other.envelope("wallet topup", { amount: 100_000, reference: `fund-${crypto.randomUUID()}` }, label));
    await attack(label, `dump ipck_${c.code}*PRMM`, c.quote, other);
    const theirs = (await attack(label, "prfl entity", fullConsumer(), other)).answer.id;
    answered(await attack(label, `entt_${theirs}: insure`, insureSeed(c, { id: w.b.policy.reference }), other));
  },
  "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*STATUS": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `dump entt_${consumerId}|insr_${productCode}-${reference}*STATUS`), 404);
    refused(await attack(label, `dump entt_${w.b.pending.consumerId}|insr_${w.b.pending.productCode}-${w.b.pending.reference}*STATUS`), 404);
  },
  "cncl entt_<consumer_id>|insr_<product_code>-<tx_id>": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `cncl entt_${consumerId}|insr_${productCode}-${reference}`, { id: crypto.randomUUID(), reason: "insured_request" }), 404);
  },
  "ndrs entt_<consumer_id>|insr_<product_code>-<tx_id>": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(
      await attack(label, `ndrs entt_${consumerId}|insr_${productCode}-${reference}`, { id: crypto.randomUUID(), addtnlFact: { rgstrtId: "LND456XY" } }),
      404,
    );
  },
  "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*ENDORSE": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `dump entt_${consumerId}|insr_${productCode}-${reference}*ENDORSE`, { addtnlFact: { rgstrtId: "LND456XY" } }), 404);
  },
  "rinst entt_<consumer_id>|insr_<product_code>-<tx_id>": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `rinst entt_${consumerId}|insr_${productCode}-${reference}`, { id: crypto.randomUUID() }), 404);
  },
  "rnew entt_<consumer_id>|insr_<product_code>-<tx_id>*AUTO": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `rnew entt_${consumerId}|insr_${productCode}-${reference}*AUTO`, { enabled: true }), 404);
  },
  "rnew entt_<consumer_id>|insr_<product_code>-<tx_id>": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `rnew entt_${consumerId}|insr_${productCode}-${reference}`, { id: crypto.randomUUID() }), 404);
  },
  "dump entt_<consumer_id>|insr_<product_code>-<tx_id>*REFUND": async (label) => {
    const { consumerId, productCode, reference } = w.b.policy;
    refused(await attack(label, `dump entt_${consumerId}|insr_${productCode}-${reference}*REFUND`), 404);
  },
  "appr entt_<consumer_id>|insr_<product_code>-<tx_id>": async (label) => {
    const { consumerId, productCode, reference } = w.b.pending;
    refused(await attack(label, `appr entt_${consumerId}|insr_${productCode}-${reference}`), 403);
    refused(await attack(label, `appr entt_${consumerId}|insr_${productCode}-${reference}`, { status: "d", statusNote: "declined by A" }), 403);
  },
  "dump entt_*": async (label) => listed(await attack(label, "dump entt_*", { limit: 100 })),
  "dump entt_*ADMIN": async (label) => refused(await attack(label, "dump entt_*ADMIN"), 403),
  "enrch niid_vehicle": async (label) => {
    // A look-up by B's policy number is A's own (billed to A, if anyone): the registry is the public record.
    const lookup = await attack(label, "enrch niid_vehicle", { search_type: "policy", value: w.b.policy.policyNo });
    answered(lookup);
  },
  "enrch vin_vehicle": async (label) => answered(await attack(label, "enrch vin_vehicle", { vin: "1HGCM82633A004352" })),
  "claim submit": async (label) => {
    refused(
      await attack(label, "claim submit", { policy: w.b.policy.reference, incidentDate: watDate(0), description: "A claims on B's policy", amount: 1000 }),
      404,
    );
  },
  "claim status": async (label) => refused(await attack(label, "claim status", { claimNo: w.b.claimNo }), 404),
  "claim list": async (label) => {
    listed(await attack(label, "claim list", { limit: 100 }));
    const filtered = await attack(label, "claim list", { policy: w.b.policy.reference });
    if (filtered.feedback.id === 75) expect(filtered.answer.list).toEqual([]);
    else refused(filtered, 404);
  },
  "claim withdraw": async (label) => refused(await attack(label, "claim withdraw", { claimNo: w.b.claimNo, note: "withdrawn by A" }), 404),
  "claim review": async (label) =>
    refused(await attack(label, "claim review", { claimNo: w.b.claimNo, status: "rejected", rejectionReason: "not_covered", note: "rejected by A" }), 403),
  "claim respond": async (label) => refused(await attack(label, "claim respond", { claimNo: w.b.claimNo, note: "answered by A" }), 404),
  "claim payee": async (label) => refused(await attack(label, "claim payee", { claimNo: w.b.claimNo, bankCode: "058", accountNumber: "0123456780" }), 404),
  "claim voucher": async (label) => refused(await attack(label, "claim voucher", { claimNo: w.b.claimNo }), 404),
  "claim accept": async (label) => refused(await attack(label, "claim accept", { claimNo: w.b.claimNo, version: 1 }), 404),
  "claim letter": async (label) => refused(await attack(label, "claim letter", { claimNo: w.b.claimNo }), 404),
  "complaint file": async (label) => {
    const about = { complainant: { name: "A's complainant", phone: "+2348030000009" }, category: "other", description: "A's complaint" };
    refused(await attack(label, "complaint file", { ...about, claimNo: w.b.claimNo }), 404);
    refused(await attack(label, "complaint file", { ...about, policy: w.b.policy.policyNo }), 404);
    refused(await attack(label, "complaint file", { ...about, policy: w.b.policy.reference }), 404);
  },
  "complaint status": async (label) => refused(await attack(label, "complaint status", { complaintNo: w.b.complaintNo }), 404),
  "consumer link": async (label) => {
    refused(await attack(label, "consumer link", { consumer: w.b.consumer.id }), 404);
    refused(await attack(label, "consumer link", { consumer: w.b.consumer.uuid }), 404);
  },
  "claim assess": async (label) => refused(await attack(label, "claim assess", { claimNo: w.b.claimNo, check: ["photos"] }), 403),
  "payment financeLoan": async (label) =>
    refused(
      await attack(label, "payment financeLoan", {
        policy: w.b.policy.reference,
        downPayment: 0,
        installments: 2,
        frequency: "monthly",
        firstDueDate: watDate(),
      }),
      404,
    ),
  "payment recordInstallment": async (label) =>
    refused(await attack(label, "payment recordInstallment", { planNo: w.b.planNo, amount: 3000, reference: `a-pay-${crypto.randomUUID().slice(0, 8)}` }), 404),
  "payment runLapse": async (label) => refused(await attack(label, "payment runLapse", { asOf: watDate(400) }), 403),
  "payment status": async (label) => refused(await attack(label, "payment status", { planNo: w.b.planNo }), 404),
  "wallet topup": async (label) => {
    // B's reference under A credits A (references are per partner); B's balance and ledger are untouched.
    answered(await attack(label, "wallet topup", { amount: 77, reference: `a-topup-${crypto.randomUUID()}` }));
    answered(await attack(label, "wallet topup", { amount: 77, reference: w.b.topUpReference }, await w.t.partner()));
  },
  // The statement is the key's own partner's: exactly A's figures, none of B's.
  "wallet statement": async (label) => {
    const statement = await attack(label, "wallet statement", {});
    answered(statement);
    const own = await partnerStatement(w.t.database.db, w.a.partnerId, currentWatMonth(new Date()));
    expect(statement.answer).toMatchObject(wireStatement(own));
  },
  "webhook register": async (label) => answered(await attack(label, "webhook register", { url: `http://127.0.0.1:9/a-hook-${label}` })),
  "webhook update": async (label) => {
    refused(await attack(label, "webhook update", { endpointId: w.b.endpoint.id, url: "http://127.0.0.1:9/stolen" }), 404);
    refused(await attack(label, "webhook update", { endpointId: w.b.endpoint.id, rotateSecret: true }), 404);
    refused(await attack(label, "webhook update", { endpointId: w.b.endpoint.id, enabled: false }), 404);
  },
  "webhook delete": async (label) => refused(await attack(label, "webhook delete", { endpointId: w.b.endpoint.id }), 404),
  "webhook list": async (label) => listed(await attack(label, "webhook list", { limit: 100 })),
  "webhook deliveries": async (label) => {
    const filtered = await attack(label, "webhook deliveries", { endpointId: w.b.endpoint.id });
    if (filtered.feedback.id === 75) expect(filtered.answer.list).toEqual([]);
    else refused(filtered, 404);
    listed(await attack(label, "webhook deliveries", { limit: 100 }));
  },
  "webhook replay": async (label) => refused(await attack(label, "webhook replay", { deliveryId: w.b.deliveryId }), 404),
  "webhook test": async (label) => refused(await attack(label, "webhook test", { endpointId: w.b.endpoint.id }), 404),
  "webhook secret": async (label) => {
    const read = await attack(label, "webhook secret");
    answered(read);
    answered(await attack(label, "webhook secret", { rotate: true }));
  },
};

describe("every command has a tenant-isolation case", () => {
  test("the cases are exactly the registry's commands", () => {
    expect(Object.keys(cases).sort()).toEqual(commandRegistry.definitions.map((d) => d.grammar).sort());
  });
});

describe("partner A aims every command at partner B's records, with each of its keys", () => {
  test.each(commandRegistry.definitions.map((d) => d.grammar))(
    "%s",
    async (grammar) => {
      const db = w.t.database.db;
      for (const label of LABELS) {
        const before = await snapshot(db, w.b.partner.partnerId);
        await cases[grammar]!(label);
        await expectUnchanged(db, w.b.partner.partnerId, before, `${grammar} with A's ${label} key`);
      }
    },
    60_000,
  );

  test("B still sees everything of its own, as it was", async () => {
    const b = w.b.partner;
    expect((await b.run("claim status", { claimNo: w.b.claimNo })).status).toBe("submitted");
    expect((await b.run("payment status", { planNo: w.b.planNo })).status).toBe("active");
    const endpoints = (await b.run("webhook list")).list;
    expect(endpoints).toEqual([expect.objectContaining({ endpointId: w.b.endpoint.id, url: w.b.endpoint.url, enabled: true })]);
    expect((await b.run("webhook secret")).secret).toBe(w.b.defaultSecret);
    const pending = await b.run(`dump entt_${w.b.pending.consumerId}|insr_${w.b.pending.productCode}-${w.b.pending.reference}*STATUS`, undefined, "live");
    expect(pending.status).toBe("p");
    // A's lists never held B's records (checked on every answer above): and A's own records are there.
    const mine = await w.t.post(w.a.envelope("dump entt_*", { limit: 100 }));
    expect(mine.list.length).toBeGreaterThan(0);
    expect(mine.list.every((p: any) => !("partnerId" in p))).toBe(true);
  });

  test("an administrator sees B's records on the administrator commands (the refusals above are about who asks)", async () => {
    const all = await w.admin.run("dump entt_*ADMIN", { limit: 100 });
    expect(all.exctnFdbck.id).toBe(75);
    expect(all.list.every((p: any) => typeof p.partnerId === "string")).toBe(true);
    expect((await w.admin.run("dump entt_*CSTMRS_ADMIN", { limit: 5 })).exctnFdbck.id).toBe(75);
  });
});

describe("the comparison can fail", () => {
  test("a change B makes to its own records shows in the snapshot, table by table", async () => {
    const db = w.t.database.db;
    const before = await snapshot(db, w.b.partner.partnerId);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        "partners",
        "api_keys",
        "consumers",
        "consumer_documents",
        "policies",
        "claims",
        "claim_documents",
        "financing_plans",
        "financing_installments",
        "wallets",
        "wallet_entries",
        "webhook_endpoints",
        "webhook_deliveries",
        "webhook_default_secrets",
        "portal_users",
        "portal_sessions",
        "outbox_events",
      ]),
    );
    expect((await w.b.partner.run("webhook update", { endpointId: w.b.endpoint.id, description: "changed by B itself" })).exctnFdbck.id).toBe(75);
    const after = await snapshot(db, w.b.partner.partnerId);
    const changed = Object.keys(after).filter((table) => JSON.stringify(after[table]) !== JSON.stringify(before[table]));
    expect(changed).toContain("webhook_endpoints");
  });
});
