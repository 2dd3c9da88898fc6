import { afterAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { freePort } from "../bench/servers";
import { publishApprovedVehicles } from "../src/modules/enrichment/publication";
import { httpVehicleRegistry, type PublishedPolicy, type VehicleRegistry } from "../src/modules/enrichment/registry";
import { usageCharges } from "../src/modules/enrichment/schema";
import { currentWatMonth, usageStatement } from "../src/modules/enrichment/service";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import { awaitingRegistry, policies } from "../src/modules/policies/schema";
import { newPlate, publishVehicle } from "./niid/records";
import { type TestPartner, testApp } from "./support/harness";
import { approvedPolicy, fullConsumer, insureSeed, productCases } from "./support/policies";
import { startVerificationService } from "./support/verification-service";

const niid = await startVerificationService();
afterAll(() => niid.stop());

const t = await testApp({ NIID_URL: niid.url, NIID_TIMEOUT_MS: 5_000 });
const db = t.database.db;
const registry = httpVehicleRegistry(niid.url, 5_000);

const published = (overrides: Partial<PublishedPolicy> = {}) => publishVehicle(registry, { name: "Leadway Assurance", prefix: "LEADWAY" }, overrides);

async function enrichedPartner(): Promise<TestPartner> {
  return t.partner({ enrichment: true });
}

const chargesOf = (partnerId: string) =>
  db
    .select({
      service: usageCharges.service,
      subject: usageCharges.subject,
      outcome: usageCharges.outcome,
      fromCache: usageCharges.fromCache,
      amountKobo: usageCharges.amountKobo,
      mode: usageCharges.mode,
    })
    .from(usageCharges)
    .where(eq(usageCharges.partnerId, partnerId))
    .orderBy(usageCharges.createdAt, usageCharges.id);

describe("enrch niid_vehicle (spec 4.3)", () => {
  test("needs activation on the account: 403 otherwise", async () => {
    const p = await t.partner();
    for (const command of ["enrch niid_vehicle", "enrch vin_vehicle"]) {
      const answer = await p.run(command, { value: "ABC123DE", vin: "1HGCM82633A004352" });
      expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
    }
    expect(await chargesOf(p.partnerId)).toEqual([]);
  });

  test.each([
    ["no value", {}, "seed.value is required"],
    ["an empty value", { value: "  " }, "seed.value must not be empty"],
    ["a number", { value: 123 }, "seed.value"],
    ["an unknown search_type", { search_type: "vin", value: "ABC123DE" }, "seed.search_type"],
  ])("%s → 400 naming the field", async (_name, seed, message) => {
    const p = await enrichedPartner();
    const answer = await p.run("enrch niid_vehicle", seed);
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain(message);
  });

  test("found by plate (any case, with spaces or hyphens) and by policy number; billed 150 naira each in live mode", async () => {
    const p = await enrichedPartner();
    const record = await published();
    const plate = record.registrationNumber;
    const spaced = `${plate.slice(0, 3).toLowerCase()}-${plate.slice(3, 6)} ${plate.slice(6).toLowerCase()}`;
    const byPlate = await p.run("enrch niid_vehicle", { value: spaced }, "live");
    expect(byPlate).toMatchObject({ status: "found", from_cache: false, message: "", exctnFdbck: { id: 75, id_v4: 200 } });
    expect(byPlate.details).toMatchObject({
      policy_number: record.policyNumber,
      registration_number: plate,
      type_of_cover: "Third Party",
      vehicle_make: "Toyota",
      vehicle_model: "Corolla",
      expiry_date: expect.stringMatching(/^\d{2} [A-Z][a-z]{2} \d{4}$/),
      licence_status: expect.stringContaining("Active"),
    });
    const byPolicy = await p.run("enrch niid_vehicle", { search_type: "policy", value: record.policyNumber.toLowerCase() }, "live");
    expect(byPolicy).toMatchObject({ status: "found", from_cache: false });
    expect(byPolicy.details.registration_number).toBe(plate);
    expect(await chargesOf(p.partnerId)).toEqual([
      { service: "registry_check", subject: `registration:${plate}`, outcome: "found", fromCache: false, amountKobo: 15_000, mode: "live" },
      { service: "registry_check", subject: `policy:${record.policyNumber}`, outcome: "found", fromCache: false, amountKobo: 15_000, mode: "live" },
    ]);
  });

  test("not_found is billed; a repeat within five minutes comes from the cache, free; test mode is never billed", async () => {
    const p = await enrichedPartner();
    const plate = newPlate();
    const first = await p.run("enrch niid_vehicle", { value: plate }, "live");
    expect(first).toMatchObject({ status: "not_found", details: {}, from_cache: false, exctnFdbck: { id: 75 } });
    expect(first.message).not.toBe("");
    const started = performance.now();
    const repeat = await p.run("enrch niid_vehicle", { value: plate }, "live");
    expect(performance.now() - started).toBeLessThan(150); // the registry takes at least 150 ms here
    expect(repeat).toMatchObject({ status: "not_found", from_cache: true });
    const sandboxCall = await p.run("enrch niid_vehicle", { value: newPlate() }, "test");
    expect(sandboxCall).toMatchObject({ status: "not_found", from_cache: false });
    const charges = await chargesOf(p.partnerId);
    expect(charges.map((c) => [c.outcome, c.fromCache, c.amountKobo, c.mode])).toEqual([
      ["not_found", false, 15_000, "live"],
      ["not_found", true, 0, "live"],
      ["not_found", false, 0, "test"],
    ]);
    const statement = await usageStatement(db, p.partnerId, currentWatMonth(new Date()));
    expect(statement.lines).toEqual([
      { service: "registry_check", mode: "live", calls: 2, billedCalls: 1, amountKobo: 15_000 },
      { service: "registry_check", mode: "test", calls: 1, billedCalls: 0, amountKobo: 0 },
    ]);
    expect(statement.totalKobo).toBe(15_000);
    expect((await usageStatement(db, p.partnerId, "2020-01")).lines).toEqual([]);
  });

  test("a registry that does not answer in time is 504 (retry); its failures are neither logged nor billed", async () => {
    const impatient = await testApp({ NIID_URL: niid.url, NIID_TIMEOUT_MS: 50 });
    const p = await impatient.partner({ enrichment: true });
    const timedOut = await p.run("enrch niid_vehicle", { value: newPlate() }, "live");
    expect(timedOut.exctnFdbck).toMatchObject({ id: 55, id_v4: 504 });
    expect(timedOut.exctnFdbck.elbrtn).toContain("retry");
    const q = await enrichedPartner();
    expect((await q.run("enrch niid_vehicle", { value: "FAULT504X" }, "live")).exctnFdbck).toMatchObject({ id: 55, id_v4: 504 });
    expect((await q.run("enrch niid_vehicle", { value: "FAULT502X" }, "live")).exctnFdbck).toMatchObject({ id: 55, id_v4: 502 });
    expect(await chargesOf(p.partnerId)).toEqual([]);
    expect(await chargesOf(q.partnerId)).toEqual([]);
  });

  test("no registry configured, or none listening: 503 / 502, never an `error` status", async () => {
    const unconfigured = await testApp({ NIID_URL: undefined });
    const p = await unconfigured.partner({ enrichment: true });
    expect((await p.run("enrch niid_vehicle", { value: newPlate() })).exctnFdbck).toMatchObject({ id: 55, id_v4: 503 });
    const unreachable = await testApp({ NIID_URL: `http://127.0.0.1:${await freePort()}` });
    const q = await unreachable.partner({ enrichment: true });
    const answer = await q.run("enrch niid_vehicle", { value: newPlate() });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 502 });
    expect(answer).not.toHaveProperty("status");
  });
});

describe("enrch vin_vehicle (spec 4.3)", () => {
  test.each([
    ["too short", "1HGCM82633A00435", "exactly 17 characters"],
    ["too long", "1HGCM82633A0043521", "exactly 17 characters"],
    ["with an I", "1HGCM82633I004352", "I, O or Q"],
    ["with an O", "JTDKB20U9O3512345", "I, O or Q"],
    ["with a Q", "QTDKB20U993512345", "I, O or Q"],
    ["with punctuation", "1HGCM8263-A004352", "only letters and digits"],
    ["a North American VIN with a wrong check digit", "1HGCM82634A004352", "invalid check digit"],
  ])("%s → 400", async (_name, vin, message) => {
    const p = await enrichedPartner();
    const answer = await p.run("enrch vin_vehicle", { vin });
    expect(answer.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(answer.exctnFdbck.elbrtn).toContain(message);
  });

  test("a missing vin → 400", async () => {
    const p = await enrichedPartner();
    expect((await p.run("enrch vin_vehicle", {})).exctnFdbck).toMatchObject({ id: 55, id_v4: 400, elbrtn: expect.stringContaining("seed.vin is required") });
  });

  // Published decodes (NHTSA vPIC) of makes common in Nigeria.
  test.each([
    ["1HGCM82633A004352", { make: "Honda", model: "Accord", year: "2003", bodyClass: "Coupe", fuelType: "Gasoline", vehicleType: "Passenger Car" }],
    ["JTDKB20U993512345", { make: "Toyota", model: "Prius", year: "2009", plantCountry: "Japan", engineDisplacement: "1.5" }],
    ["4T1BF1FK0CU123456", { make: "Toyota", model: "Camry", year: "2012", plantCountry: "United States (USA)" }],
    ["JTHBK1GG1D2123456", { make: "Lexus", model: "ES", year: "2013", engineDisplacement: "3.5" }],
    ["WDDGF8AB6DR123456", { make: "Mercedes-Benz", model: "C-Class", year: "2013", manufacturer: "Mercedes-Benz Cars" }],
    ["KMHCT4AE5CU123456", { make: "Hyundai", model: "Accent", year: "2012", manufacturer: "HYUNDAI MOTOR CO" }],
    ["5XYKT4A68CG123456", { make: "Kia", model: "Sorento", year: "2012", bodyClass: "SUV" }],
    ["1G4AH59H45G118341", { make: "Buick", year: "2005", engineDisplacement: "2.2", manufacturer: "GENERAL MOTORS LLC" }],
  ])(
    "%s decodes",
    async (vin, expected) => {
      const p = await enrichedPartner();
      const answer = await p.run("enrch vin_vehicle", { vin: vin.toLowerCase() }, "live");
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
      expect(answer).toMatchObject(expected);
      const [charge] = await chargesOf(p.partnerId);
      expect(charge).toEqual({ service: "vin_decode", subject: vin, outcome: "decoded", fromCache: false, amountKobo: 0, mode: "live" });
    },
    20_000,
  );

  test("a VIN the catalogue does not know answers only what is known (here: nothing); the check-digit vector 1J9RP1A36A1644345 is valid", async () => {
    const p = await enrichedPartner();
    const answer = await p.run("enrch vin_vehicle", { vin: "1J9RP1A36A1644345" });
    expect(answer).toEqual({ exctnFdbck: { id: 75, id_v4: 200 } });
    expect((await chargesOf(p.partnerId))[0]).toMatchObject({ outcome: "unknown", amountKobo: 0 });
  });
});

describe("underwriting consults the registry; approved vehicle policies are published to it", () => {
  const c = productCases["vhcl-tprt-1111"]!;
  const underwrite = () => underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000, registry });

  async function liveVehiclePolicy(addtnlFact: Record<string, unknown>) {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 1_000_000, reference: `fund-${crypto.randomUUID()}` }, "live");
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    const seed = insureSeed(c, { addtnlFact: { ...c.addtnlFact(), ...addtnlFact } });
    const answer = await p.run(`entt_${consumer}: insure`, seed, "live");
    expect(answer.status).toBe("p");
    const status = () => p.run(`dump entt_${consumer}|insr_${c.code}-${answer.id}*STATUS`, undefined, "live");
    return { status };
  }

  test("the plate registered to another make or chassis is declined: vehicle details not matching national records", async () => {
    const record = await published({ vehicleMake: "Honda", vehicleModel: "Accord", chassisNumber: "1HGCM82633A004352" });
    const { status } = await liveVehiclePolicy({ rgstrtId: record.registrationNumber, brand: "Toyota", model: "Corolla", chsssId: "2T1BURHE0JC074316" });
    await underwrite();
    const decided = await status();
    expect(decided.status).toBe("d");
    expect(decided.statusNote).toContain("not matching national records");
    expect(decided.statusNote).toContain("Honda");
  });

  test("a registry record holding text no column holds (a NUL, an unpaired surrogate) is still decided on, with U+FFFD in their place", async () => {
    const record = await published({ vehicleMake: "Hon\u0000da", vehicleModel: "Acc\ud800ord" });
    const { status } = await liveVehiclePolicy({ rgstrtId: record.registrationNumber, brand: "Toyota", model: "Corolla" });
    await underwrite();
    const decided = await status();
    expect(decided.status).toBe("d");
    expect(decided.statusNote).toContain("make Hon\ufffdda, not Toyota; model Acc\ufffdord, not Corolla");
    // The partner's own check answers the same words.
    const p = await enrichedPartner();
    const check = await p.run("enrch niid_vehicle", { value: record.registrationNumber }, "live");
    expect(check.details).toMatchObject({ vehicle_make: "Hon\ufffdda", vehicle_model: "Acc\ufffdord" });
  });

  test("a plate the registry shows with the same vehicle, or does not know, is approved", async () => {
    const record = await published({ vehicleMake: "TOYOTA", vehicleModel: "Corolla", chassisNumber: "2T1BURHE0JC074316" });
    const same = await liveVehiclePolicy({ rgstrtId: record.registrationNumber, brand: "Toyota", model: "Corolla LE", chsssId: "2T1BURHE0JC074316" });
    const unknown = await liveVehiclePolicy({ rgstrtId: newPlate() });
    await underwrite();
    expect((await same.status()).status).toBe("a");
    expect((await unknown.status()).status).toBe("a");
  });

  test("the decision's time is when it was made, after a slow registry lookup, not when the run began", async () => {
    const { status } = await liveVehiclePolicy({ rgstrtId: newPlate() });
    const slow: VehicleRegistry = {
      publish: (policy) => registry.publish(policy),
      lookup: async (searchType, value) => {
        await Bun.sleep(1_500);
        return registry.lookup(searchType, value);
      },
    };
    const start = new Date(Date.now() + 60_000);
    await underwriteDuePolicies(db, simulatedInsurer, start, { batch: 1000, registry: slow });
    const decided = await status();
    expect(decided.status).toBe("a");
    const [row] = await db.select().from(policies).where(eq(policies.policyNo, decided.policyNo));
    expect(row!.statusAt.getTime() - start.getTime()).toBeGreaterThanOrEqual(1_500);
  });

  test("a pass looks each registration up once, several at a time (a first lookup takes seconds)", async () => {
    const shared = newPlate();
    const plates = [shared, shared, ...Array.from({ length: 4 }, newPlate)];
    const policiesOf = [];
    for (const plate of plates) policiesOf.push(await liveVehiclePolicy({ rgstrtId: plate }));
    const asked: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const slow: VehicleRegistry = {
      publish: (policy) => registry.publish(policy),
      lookup: async (searchType, value) => {
        asked.push(value);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await Bun.sleep(200);
        inFlight--;
        return registry.lookup(searchType, value);
      },
    };
    await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 60_000), { batch: 1000, registry: slow });
    for (const { status } of policiesOf) expect((await status()).status).toBe("a");
    expect(asked.filter((value) => value === shared)).toHaveLength(1);
    expect(mostInFlight).toBe(5);
  });

  test("when the registry cannot answer, underwriting waits and tries again", async () => {
    const { status } = await liveVehiclePolicy({ rgstrtId: "FAULT502A" });
    await underwrite();
    expect((await status()).status).toBe("p");
  });

  test("an approved policy is published: a registry check of its policy number finds our vehicle", async () => {
    const p = await enrichedPartner();
    const plate = newPlate();
    const consumer = (await p.run("prfl entity", fullConsumer())).id;
    const issued = await p.run(`entt_${consumer}: insure`, insureSeed(c, { addtnlFact: { ...c.addtnlFact(), rgstrtId: plate } }));
    expect(issued.status).toBe("a");
    while ((await publishApprovedVehicles(db, registry, "Sandbox Insurance Plc", new Date())) > 0) {}
    const [row] = await db
      .select()
      .from(policies)
      .where(and(eq(policies.partnerId, p.partnerId), eq(policies.reference, issued.id)));
    expect(row!.registryPublishedAt).not.toBeNull();
    const found = await p.run("enrch niid_vehicle", { search_type: "policy", value: issued.policyNo });
    expect(found).toMatchObject({ status: "found", details: { registration_number: plate, vehicle_make: "Toyota", insurer: "Sandbox Insurance Plc" } });
  });

  test("only vehicle policies are published: an approved policy of any other product is not in the registry's queue", async () => {
    const p = await enrichedPartner();
    const vehicles = ["vhcl-cmpr-1111", "vhcl-tprt-1111"];
    const others = ["phnn-flx1-1111", "lapt-flx2-1111", "gtrn-stnd-1111", "allr-stnd-1111"];
    const references = new Map<string, string>();
    for (const code of [...vehicles, ...others]) references.set(await approvedPolicy(p, code), code);
    while ((await publishApprovedVehicles(db, registry, "Sandbox Insurance Plc", new Date())) > 0) {}
    const rows = await db
      .select({ reference: policies.reference, publishedAt: policies.registryPublishedAt })
      .from(policies)
      .where(eq(policies.partnerId, p.partnerId));
    const published = rows.filter((row) => row.publishedAt !== null).map((row) => references.get(row.reference));
    expect(published.sort()).toEqual(vehicles);
  });

  test("the publication job's query reads the queue's partial index: the migrated index lists the products the families publish", async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain ${tx.select().from(policies).where(awaitingRegistry(policies)).orderBy(policies.statusAt).limit(20)}`);
    });
    // postgres.js answers an array of rows, PGlite an object with `rows`.
    const rows = (Array.isArray(plan) ? plan : (plan as unknown as { rows: unknown[] }).rows) as Record<string, string>[];
    expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("policies_unpublished_vehicles_idx");
  });
});
