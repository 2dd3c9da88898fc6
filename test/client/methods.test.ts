/**
 * Every method of the TypeScript client once, against the real service (src/main.ts as a process
 * on a fresh PGlite directory, partners from `npm run cli -- partner create`), each answer checked
 * for what the command documents.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { CommandRefused, PartnerClient, paginate, type CommandRefused as Refused, verifyWebhook } from "../../clients/typescript/src/index";
import { startVerificationService } from "../support/verification-service";
import { type Receiver, startReceiver } from "../support/webhook-receiver";
import { type CliPartner, consumerSeed, countingFetch, imei, type Service, startService, vehicleFacts, watDate } from "./support";

let service: Service;
let niid: Awaited<ReturnType<typeof startVerificationService>>;
let receiver: Receiver;
let partner: CliPartner;
let admin: CliPartner;
let client: PartnerClient;
let operator: PartnerClient;

beforeAll(async () => {
  niid = await startVerificationService();
  receiver = await startReceiver();
  service = await startService({ NIID_URL: niid.url, WEBHOOK_ALLOW_PRIVATE: "true", INSURER_DELAY_MS: "200", RATE_LIMIT_MAX: "100000" });
  [partner, admin] = await Promise.all([service.partner(["--enrichment"]), service.partner(["--admin"])]);
  client = service.client(partner);
  operator = service.client(admin);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  niid?.stop();
  receiver?.stop();
});

const state: { consumerId: string; txId: string; claimNo?: string; planNo?: string; endpointId?: string; secret?: string } = { consumerId: "", txId: "" };
const OK = { id: 75, id_v4: 200 } as const;

describe("consumers, quotes, policies", () => {
  test("registerConsumer → id (32 hex) and id_uuid; a repeat with the same e-mail returns the same consumer", async () => {
    const seed = consumerSeed();
    const answer = await client.registerConsumer(seed);
    expect(answer.exctnFdbck).toEqual(OK);
    expect(answer.id).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.id_uuid.replaceAll("-", "")).toBe(answer.id);
    expect((await client.registerConsumer(seed)).id).toBe(answer.id);
    state.consumerId = answer.id;
  });

  test("listConsumers (partner) and listAllConsumers (administrator)", async () => {
    const mine = await client.listConsumers({ limit: 5 });
    expect(mine.list.map((c) => c.id)).toEqual([state.consumerId]);
    expect(mine.nextCursor).toBeNull();
    const all = await operator.listAllConsumers();
    expect(all.list.find((c) => c.id === state.consumerId)?.partnerId).toBe(partner.partnerId);
  });

  test("quote → prmm in naira", async () => {
    const answer = await client.quote("vhcl-tprt-1111", { insrncDrtn: "1y" });
    expect(answer).toEqual({ prmm: 15000, currency: "NGN", exctnFdbck: OK });
  });

  test("insure (test mode) → approved at once with a specimen; status; certificate downloaded from certUrl", async () => {
    const txId = crypto.randomUUID();
    const answer = await client.insure(state.consumerId, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: txId, insrncDrtn: "1y", addtnlFact: vehicleFacts() });
    expect(answer).toMatchObject({ id: txId, status: "a", crtfctType: "pdf", exctnFdbck: OK });
    expect(answer.policyNo).toMatch(/^TST-VHCL-/);
    state.txId = answer.id;
    const status = await client.status(state.consumerId, "vhcl-tprt-1111", txId);
    expect(status).toMatchObject({ status: "a", policyNo: answer.policyNo, crtfctType: "pdf", exctnFdbck: OK });
    expect(status.tmstmp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const certificate = await client.certificate(status);
    expect(certificate.source).toBe("hosted");
    expect(certificate.type).toBe("pdf");
    expect(new TextDecoder().decode(certificate.bytes.slice(0, 4))).toBe("%PDF");
  });

  test("certificate decodes an inline crtfct (credit life)", async () => {
    const txId = crypto.randomUUID();
    const fact = { loanAmount: 50_000_000, loanTenure: 12, disbursementDate: watDate(), loanStartDate: watDate(), loanEndDate: watDate(365) };
    await client.quote("crlt-sme1-1111", { loanAmount: 50_000_000 });
    await client.insure(state.consumerId, { ctgry: "crlt", type: "sme1", pckg: "1111", id: txId, addtnlFact: fact });
    const status = await client.status(state.consumerId, "crlt-sme1-1111", txId);
    const certificate = await client.certificate(status);
    expect(certificate).toMatchObject({ source: "inline", type: "pdf" });
    expect(new TextDecoder().decode(certificate.bytes.slice(0, 4))).toBe("%PDF");
  });

  test("listTransactions (partner, with a filter) and listAllTransactions (administrator); paginate walks the pages", async () => {
    const mine = await client.listTransactions({ productCode: "vhcl-tprt-1111" });
    expect(mine.list).toHaveLength(1);
    expect(mine.list[0]).toMatchObject({ id: state.txId, consumerId: state.consumerId, status: "a", prmm: 15000, mode: "test" });
    const all = await operator.listAllTransactions({ limit: 100 });
    expect(all.list.find((t) => t.id === state.txId)?.partnerId).toBe(partner.partnerId);
    const walked: string[] = [];
    for await (const t of paginate((seed) => client.listTransactions(seed), { limit: 1 })) walked.push(t.id);
    expect(walked).toHaveLength(2);
    expect(walked).toContain(state.txId);
  });

  test("approve (administrator) decides a pending live policy", async () => {
    const live = service.client(partner, "live");
    await live.topUpWallet({ amount: 5_000_000, reference: `fund-${crypto.randomUUID()}` });
    const txId = crypto.randomUUID();
    await live.quote("crlt-psnl-1111", { loanAmount: 10_000_000 });
    const fact = { loanAmount: 10_000_000, loanTenure: 12, disbursementDate: watDate(), loanStartDate: watDate(), loanEndDate: watDate(365) };
    const issued = await live.insure(state.consumerId, { ctgry: "crlt", type: "psnl", pckg: "1111", id: txId, addtnlFact: fact });
    expect(issued.status).toBe("p");
    const approved = await service.client(admin, "live").approve(state.consumerId, "crlt-psnl-1111", txId);
    expect(approved).toMatchObject({ id: txId, status: "a", exctnFdbck: OK });
    expect((await live.status(state.consumerId, "crlt-psnl-1111", txId)).status).toBe("a");
  });

  test("hospitals", async () => {
    const answer = await client.hospitals({ insurer: "axam" });
    expect(answer.list.length).toBeGreaterThan(0);
    expect(answer.list.every((h) => h.insurer === "axam")).toBe(true);
  });

  test("setMode: the account toggle; the key's own mode stays pinned", async () => {
    expect(await client.setMode("live")).toEqual({ mode: "live", keyMode: "test", exctnFdbck: OK });
    expect(await service.client(partner, "legacy").setMode("test")).toEqual({ mode: "test", keyMode: "test", exctnFdbck: OK });
  });

  test("command: any command string through the same policy", async () => {
    const answer = await client.command<{ list: unknown[] }>("dump entt_*CSTMRS", { limit: 1 });
    expect(answer.list).toHaveLength(1);
  });
});

describe("enrichment (an account created with --enrichment)", () => {
  test("checkVehicle: found, then from the cache", async () => {
    const first = await client.checkVehicle({ value: "abc-123 de" });
    expect(first).toMatchObject({ status: "found", from_cache: false, message: "", exctnFdbck: OK });
    expect(first.details.registration_number).toBe("ABC123DE");
    expect((await client.checkVehicle({ search_type: "registration", value: "ABC123DE" })).from_cache).toBe(true);
  });

  test("decodeVin", async () => {
    const answer = await client.decodeVin("1HGCM82633A004352");
    expect(answer).toMatchObject({ make: "Honda", model: "Accord", year: "2003", exctnFdbck: OK });
  });

  test("an account without activation: 403 CommandRefused", async () => {
    const error = (await operator.decodeVin("1HGCM82633A004352").catch((e) => e)) as Refused;
    expect(error).toBeInstanceOf(CommandRefused);
    expect(error.status).toBe(403);
  });
});

describe("wallet, claims, financing", () => {
  test("topUpWallet: a repeat with the same reference answers the first result", async () => {
    const reference = `topup-${crypto.randomUUID().slice(0, 8)}`;
    const first = await client.topUpWallet({ amount: 25_000, reference });
    expect(first).toMatchObject({ reference, amount: 25_000, currency: "NGN", exctnFdbck: OK });
    expect(await client.topUpWallet({ amount: 25_000, reference })).toEqual(first);
  });

  test("submitClaim, claimStatus, listClaims, withdrawClaim", async () => {
    const reference = `claim-${crypto.randomUUID().slice(0, 8)}`;
    const seed = { policy: state.txId, incidentDate: watDate(), description: "Rear bumper hit in traffic", amount: 45_000, reference };
    const submitted = await client.submitClaim(seed);
    expect(submitted).toMatchObject({ reference, status: "submitted", policy: state.txId, productCode: "vhcl-tprt-1111", amount: 45_000, exctnFdbck: OK });
    expect(submitted.claimNo).toMatch(/^CLM-\d{4}-/);
    expect((await client.submitClaim(seed)).claimNo).toBe(submitted.claimNo);
    const detail = await client.claimStatus(submitted.claimNo);
    expect(detail).toMatchObject({ claimNo: submitted.claimNo, status: "submitted", documents: [], history: [{ status: "submitted" }] });
    expect((await client.listClaims({ policy: state.txId })).list.map((c) => c.claimNo)).toEqual([submitted.claimNo]);
    const withdrawn = await client.withdrawClaim(submitted.claimNo, "Settled privately");
    expect(withdrawn.status).toBe("withdrawn");
  });

  test("reviewClaim (administrator)", async () => {
    const claim = await client.submitClaim({ policy: state.txId, incidentDate: watDate(), description: "Windscreen cracked", amount: 20_000 });
    expect((await operator.reviewClaim({ claimNo: claim.claimNo, status: "in_review" })).status).toBe("in_review");
    const reviewed = await operator.reviewClaim({ claimNo: claim.claimNo, status: "approved", approvedAmount: 15_000 });
    expect(reviewed).toMatchObject({ claimNo: claim.claimNo, status: "approved", approvedAmount: 15_000, partnerId: partner.partnerId });
  });

  test("financeLoan, recordInstallment (a repeat answers the first), paymentStatus, runLapse (administrator)", async () => {
    const plan = await client.financeLoan({ policy: state.txId, downPayment: 3_000, installments: 3, frequency: "monthly", firstDueDate: watDate(30) });
    expect(plan).toMatchObject({
      policy: state.txId,
      status: "active",
      premium: 15_000,
      downPayment: 3_000,
      financed: 12_000,
      installments: 3,
      exctnFdbck: OK,
    });
    expect(plan.schedule).toHaveLength(3);
    const payment = { planNo: plan.planNo, amount: 4_000, reference: `pay-${crypto.randomUUID().slice(0, 8)}` };
    const paid = await client.recordInstallment(payment);
    expect(paid).toMatchObject({ planNo: plan.planNo, amount: 4_000, outstanding: 8_000, paidInstallments: 1, status: "active" });
    expect(await client.recordInstallment(payment)).toEqual(paid);
    const status = await client.paymentStatus(plan.planNo);
    expect(status).toMatchObject({ planNo: plan.planNo, paid: 4_000, outstanding: 8_000 });
    expect(status.payments.map((p) => p.reference)).toEqual([payment.reference]);
    const lapse = await operator.runLapse({ asOf: watDate() });
    expect(lapse).toMatchObject({ asOf: watDate(), count: 0, lapsed: [] });
  });
});

describe("the policy lifecycle: each change by its own reference, a repeat answering the first", () => {
  /** A vehicle policy of its own, approved at once (test mode). */
  async function vehiclePolicy() {
    const txId = crypto.randomUUID();
    await client.insure(state.consumerId, { ctgry: "vhcl", type: "tprt", pckg: "1111", id: txId, insrncDrtn: "1y", addtnlFact: vehicleFacts() });
    return [state.consumerId, "vhcl-tprt-1111", txId] as const;
  }

  test("quoteEndorsement, then endorse: a new plate, applied at once as certificate version 2", async () => {
    const policy = await vehiclePolicy();
    const addtnlFact = { rgstrtId: "LND456XY" };
    const changes = [{ field: "rgstrtId", from: "ABC123DE", to: "LND456XY" }];
    const preview = await client.quoteEndorsement(...policy, { addtnlFact });
    expect(preview).toEqual({
      id: policy[2],
      status: "a",
      changes,
      premiumChange: 0,
      explanation: "The premium does not change",
      reviewed: false,
      exctnFdbck: OK,
    });
    const seed = { id: crypto.randomUUID(), addtnlFact };
    const endorsed = await client.endorse(...policy, seed);
    expect(endorsed).toMatchObject({
      id: policy[2],
      status: "a",
      version: 2,
      endorsement: { id: seed.id, status: "applied", version: 2, changes, premiumChange: 0 },
      exctnFdbck: OK,
    });
    expect(await client.endorse(...policy, seed)).toEqual(endorsed);
  });

  test("quoteCancellation and cancel from a later day give the same figures; reinstate before it takes effect: no gap", async () => {
    const policy = await vehiclePolicy();
    const effectiveDate = watDate(30);
    const refund = await client.quoteCancellation(...policy, effectiveDate);
    expect(refund).toMatchObject({ id: policy[2], status: "a", effectiveDate, refund: 15_000, fee: 0, refundBasis: "cooling-off", exctnFdbck: OK });
    const { id: _id, status: _status, exctnFdbck: _feedback, ...figures } = refund;
    const seed = { id: crypto.randomUUID(), reason: "item_sold" as const, effectiveDate, note: "Car sold to a dealer" };
    const cancelled = await client.cancel(...policy, seed);
    expect(cancelled).toMatchObject({
      id: policy[2],
      status: "c",
      cancellation: { id: seed.id, reason: "item_sold", note: seed.note, ...figures },
      exctnFdbck: OK,
    });
    expect(cancelled.statusNote).toStartWith(`Cancelled from ${effectiveDate}`);
    expect(await client.cancel(...policy, seed)).toEqual(cancelled);
    expect((await client.status(...policy)).status).toBe("c");

    const reinstatement = { id: crypto.randomUUID() };
    const reinstated = await client.reinstate(...policy, reinstatement);
    expect(reinstated).toMatchObject({ id: policy[2], status: "a", reinstatement: { id: reinstatement.id, paid: 0 }, exctnFdbck: OK });
    expect(reinstated.reinstatement.gap).toBeUndefined();
    expect(await client.reinstate(...policy, reinstatement)).toEqual(reinstated);
    expect((await client.status(...policy)).status).toBe("a");
  });

  test("renew in the last 60 days: a new policy under seed.id, its status by its own reference; setAutoRenew on and off", async () => {
    const txId = crypto.randomUUID();
    const addtnlFact = { sumInsured: 1_000_000, description: "Laptop, camera and two phones" };
    await client.insure(state.consumerId, { ctgry: "allr", type: "stnd", pckg: "1111", id: txId, insrncDrtn: "1m", addtnlFact });
    const seed = { id: crypto.randomUUID() };
    const renewed = await client.renew(state.consumerId, "allr-stnd-1111", txId, seed);
    expect(renewed).toMatchObject({ id: seed.id, renews: txId, status: "a", prmm: 5_000, exctnFdbck: OK });
    // Its cover continues from the midnight after the renewed one's ends.
    expect(renewed.coverStart).toMatch(/^\d{4}-\d\d-\d\d 00:00:00$/);
    expect(await client.renew(state.consumerId, "allr-stnd-1111", txId, seed)).toEqual(renewed);
    expect(await client.status(state.consumerId, "allr-stnd-1111", renewed.id)).toMatchObject({ status: "a", policyNo: renewed.policyNo });

    expect(await client.setAutoRenew(state.consumerId, "allr-stnd-1111", renewed.id, true)).toEqual({ id: renewed.id, autoRenew: true, exctnFdbck: OK });
    expect(await client.setAutoRenew(state.consumerId, "allr-stnd-1111", renewed.id, false)).toEqual({ id: renewed.id, autoRenew: false, exctnFdbck: OK });
  });
});

describe("webhooks: the endpoint commands, and real deliveries verified by verifyWebhook", () => {
  test("registerWebhook → secret once; listWebhooks without it", async () => {
    const registered = await client.registerWebhook({ url: receiver.url("/client"), events: ["webhook.test", "wallet.credited"], description: "client test" });
    expect(registered.secret).toMatch(/^whsec_/);
    expect(registered).toMatchObject({ url: receiver.url("/client"), enabled: true, events: ["webhook.test", "wallet.credited"] });
    state.endpointId = registered.endpointId;
    state.secret = registered.secret;
    receiver.trust("/client", registered.secret);
    const listed = await client.listWebhooks();
    expect(listed.list.map((e) => e.endpointId)).toEqual([registered.endpointId]);
    expect(listed.list[0]).not.toHaveProperty("secret");
  });

  test("testWebhook → a delivery that verifyWebhook accepts with the endpoint's secret (and standardwebhooks agrees)", async () => {
    const delivery = await client.testWebhook(state.endpointId!);
    expect(delivery).toMatchObject({ eventType: "webhook.test", endpointId: state.endpointId, status: "pending" });
    await receiver.waitFor("the test delivery", () => receiver.hitsAt("/client").some((h) => h.id === delivery.eventId));
    const hit = receiver.hitsAt("/client").find((h) => h.id === delivery.eventId)!;
    const event = await verifyWebhook<{ endpointId: string }>(hit.body, hit.headers, state.secret!);
    expect(event.type).toBe("webhook.test");
    expect(event.data.endpointId).toBe(state.endpointId!);
    expect(new Webhook(state.secret!).verify(hit.body, hit.headers)).toEqual(event);
    await expect(verifyWebhook(hit.body, hit.headers, `whsec_${btoa("another secret of 32 bytes......")}`)).rejects.toThrow("no webhook-signature matches");
  });

  test("webhookDeliveries and replayWebhook (same webhook-id)", async () => {
    let deliveries = await client.webhookDeliveries({ endpointId: state.endpointId! });
    const start = Date.now();
    while (deliveries.list[0]?.status !== "succeeded" && Date.now() - start < 10_000) {
      await Bun.sleep(100);
      deliveries = await client.webhookDeliveries({ endpointId: state.endpointId! });
    }
    const original = deliveries.list[0]!;
    expect(original).toMatchObject({ status: "succeeded", lastStatus: 200 });
    expect(original.attempts[0]!.request.headers["webhook-id"]).toBe(original.eventId);
    const replay = await client.replayWebhook(original.deliveryId);
    expect(replay).toMatchObject({ replayOf: original.deliveryId, eventId: original.eventId });
    await receiver.waitFor("the replay", () => receiver.hitsAt("/client").filter((h) => h.id === original.eventId).length === 2);
  });

  test("updateWebhook with rotateSecret: both secrets sign; verifyWebhook takes either (or both)", async () => {
    const rotated = await client.updateWebhook({ endpointId: state.endpointId!, rotateSecret: true, description: "rotated" });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.previousSecretUntil).toBeDefined();
    receiver.trust("/client", rotated.secret!);
    const before = receiver.hitsAt("/client").length;
    await client.topUpWallet({ amount: 100, reference: `rot-${crypto.randomUUID().slice(0, 8)}` });
    await receiver.waitFor("the wallet.credited delivery", () => receiver.hitsAt("/client").length > before);
    const hit = receiver.hitsAt("/client").at(-1)!;
    expect(hit.signature.split(" ")).toHaveLength(2);
    for (const secrets of [state.secret!, rotated.secret!, [rotated.secret!, state.secret!]])
      expect((await verifyWebhook(hit.body, hit.headers, secrets)).type).toBe("wallet.credited");
  });

  test("webhookSecret (the default secret) and deleteWebhook", async () => {
    const secret = await client.webhookSecret();
    expect(secret.secret).toMatch(/^whsec_/);
    expect((await client.webhookSecret()).secret).toBe(secret.secret);
    const deleted = await client.deleteWebhook(state.endpointId!);
    expect(deleted).toMatchObject({ endpointId: state.endpointId, deleted: true, exctnFdbck: OK });
    expect((await client.listWebhooks()).list).toEqual([]);
  });
});

describe("refusals", () => {
  test("a 55 throws CommandRefused with id_v4, elbrtn and the field, and is sent once", async () => {
    const { fetch, bodies } = countingFetch();
    const counted = service.client(partner, "test", { fetch });
    const error = (await counted.registerConsumer({ ...consumerSeed(), phoneNo: "08031234567" }).catch((e) => e)) as Refused;
    expect(error).toBeInstanceOf(CommandRefused);
    expect(error.status).toBe(400);
    expect(error.id_v4).toBe(400);
    expect(error.field).toBe("seed.phoneNo");
    expect(error.elbrtn).toContain("+234");
    expect(error.answer.exctnFdbck.id).toBe(55);
    expect(bodies).toHaveLength(1);
  });

  test("a wrong key: 401 'not genuine', not retried", async () => {
    const { fetch, bodies } = countingFetch();
    const wrong = new PartnerClient({ baseUrl: service.url, partnerId: partner.partnerId, keyId: partner.keys.test.id, key: btoa("x".repeat(32)), fetch });
    const error = (await wrong.quote("vhcl-tprt-1111", { insrncDrtn: "1y" }).catch((e) => e)) as Refused;
    expect(error.status).toBe(401);
    expect(error.elbrtn).toContain("not genuine");
    expect(bodies).toHaveLength(1);
  });

  test("a reused transaction reference: 409 naming seed.id", async () => {
    const error = (await client
      .insure(state.consumerId, {
        ctgry: "phnn",
        type: "flx1",
        pckg: "1111",
        id: state.txId,
        insrncDrtn: "1y",
        addtnlFact: { brand: "Tecno", model: "Camon 20", uIdnt: imei() },
      })
      .catch((e) => e)) as Refused;
    expect(error.status).toBe(409);
    expect(error.field).toBe("seed.id");
  });
});
