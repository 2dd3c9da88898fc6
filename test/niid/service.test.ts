/**
 * The verification service end to end: `bun src/niid/main.ts` as a child process with a short
 * registry latency and its own sandbox file, driven over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { displayDate } from "../../src/niid/dates";
import { sandboxRecords } from "../../src/niid/sandbox-data";
import { type NiidProcess, startNiid } from "./process";

const LATENCY_MIN_MS = 150;
const directory = mkdtempSync(join(tmpdir(), "niid-"));
const sandboxFile = join(directory, "sandbox.json");
const env = { NIID_LATENCY_MIN_MS: String(LATENCY_MIN_MS), NIID_LATENCY_MAX_MS: "250", NIID_SANDBOX_FILE: sandboxFile };

let niid: NiidProcess;
let unconfigured: NiidProcess;
const started: NiidProcess[] = [];

beforeAll(async () => {
  [niid, unconfigured] = await Promise.all([startNiid(env), startNiid({ ...env, NIID_REGISTRY: "none" })]);
  started.push(niid, unconfigured);
});

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  rmSync(directory, { recursive: true, force: true });
});

const verify = (body: unknown, on: NiidProcess = niid) => on.post("/verify/vehicle", body);
const seeded = (plate: string) => sandboxRecords().find((r) => r.registrationNumber === plate)!;

describe("start-up", () => {
  test("logs one JSON line when listening", () => {
    const line = niid
      .output()
      .split("\n")
      .find((l) => l.includes("niid listening"));
    expect(JSON.parse(line!)).toMatchObject({ level: "info", msg: "niid listening", port: Number(new URL(niid.url).port), registry: "sandbox" });
  });

  test("GET /healthz", async () => {
    const response = await fetch(`${niid.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("lookups", () => {
  test("found by registration: every detail, after the registry's latency; the repeat is instant and identical", async () => {
    const record = seeded("ABC123DE");
    const first = await verify({ search_type: "registration", value: "ABC123DE" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: "found",
      details: {
        policy_number: record.policyNumber,
        registration_number: "ABC123DE",
        chassis_number: record.chassisNumber,
        type_of_cover: "Third Party",
        vehicle_make: "Toyota",
        vehicle_model: "Corolla",
        expiry_date: displayDate(record.expiryDate),
        licence_status: "Active policy",
        insurer: "AIICO Insurance Plc",
      },
      message: "",
    });
    expect(first.ms).toBeGreaterThanOrEqual(LATENCY_MIN_MS);
    expect(first.headers.get("x-cache")).toBe("MISS");

    const second = await verify({ search_type: "registration", value: "ABC123DE" });
    expect(second.ms).toBeLessThan(LATENCY_MIN_MS / 2);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  test("found by policy number, case-insensitively and trimmed", async () => {
    const record = seeded("LSD482KJ");
    const { status, body } = await verify({ search_type: "policy", value: `  ${record.policyNumber.toLowerCase()} ` });
    expect(status).toBe(200);
    expect(body.status).toBe("found");
    expect(body.details.policy_number).toBe(record.policyNumber);
    expect(body.details.registration_number).toBe("LSD482KJ");
  });

  test("search_type defaults to registration; plates match whatever their case, spaces and hyphens", async () => {
    const { status, body, ms } = await verify({ value: "kja-901 ab" });
    expect(status).toBe(200);
    expect(body.details.registration_number).toBe("KJA901AB");
    expect(ms).toBeGreaterThanOrEqual(LATENCY_MIN_MS);
    // Another spelling of the same plate is the same cache entry.
    const again = await verify({ search_type: "registration", value: "KJA 901-AB" });
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body).toEqual(body);
  });

  test("not_found: empty details and a message naming the value", async () => {
    const { status, body } = await verify({ value: "zzz 999 zz" });
    expect(status).toBe(200);
    expect(body).toEqual({ status: "not_found", details: {}, message: "no insurance record was found for registration number ZZZ999ZZ" });
    const byPolicy = await verify({ search_type: "policy", value: "NONE/MTR/2025/000000" });
    expect(byPolicy.body).toEqual({ status: "not_found", details: {}, message: "no insurance record was found for policy number NONE/MTR/2025/000000" });
  });

  test("licence status follows the expiry date; expiry_date reads DD MMM YYYY", async () => {
    const [expired, active] = await Promise.all([verify({ value: "ILR694KW" }), verify({ value: "EKY215AA" })]);
    expect(expired.body.details.licence_status).toBe("Expired policy");
    expect(active.body.details.licence_status).toBe("Active policy");
    for (const answer of [expired, active]) expect(answer.body.details.expiry_date).toMatch(/^\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/);
    expect(expired.body.details.expiry_date).toBe(displayDate(seeded("ILR694KW").expiryDate));
  });
});

describe("refusals", () => {
  test.each([
    [
      "a search_type other than registration or policy",
      { search_type: "vin", value: "ABC123DE" },
      'search_type must be one of "registration", "policy"; received "vin"',
    ],
    ["an empty value", { value: "   " }, "value must not be empty"],
    ["no value", { search_type: "policy" }, "value is required"],
    ["a value that is not a string", { value: 123 }, "value must be a string; received an integer"],
    ["malformed JSON", '{"value": "ABC123DE"', "the request body is not valid JSON"],
    ["a body that is not an object", '["ABC123DE"]', "the request body must be a JSON object; received an array"],
  ])("400 for %s", async (_, body, message) => {
    const answer = await verify(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: "error", message });
  });

  test("502 when the registry answers unexpectedly; errors are never cached", async () => {
    const first = await verify({ value: "FAULT502" });
    expect(first.status).toBe(502);
    expect(first.body).toEqual({ status: "error", message: "the vehicle registry gave an unexpected response; retry later" });
    const second = await verify({ value: "FAULT502" });
    expect(second.status).toBe(502);
    expect(second.ms).toBeGreaterThanOrEqual(LATENCY_MIN_MS);
  });

  test("504 when the anti-automation token pool times out, saying to retry", async () => {
    const { status, body } = await verify({ search_type: "policy", value: "FAULT504/MTR/2025/1" });
    expect(status).toBe(504);
    expect(body.status).toBe("error");
    expect(body.message).toContain("retry");
  });

  test("503 when no registry is configured", async () => {
    const { status, body } = await verify({ value: "ABC123DE" }, unconfigured);
    expect(status).toBe(503);
    expect(body).toEqual({ status: "error", message: "vehicle verification is not configured on this service: no registry is connected" });
  });

  test("unknown paths answer 404 in JSON", async () => {
    const response = await fetch(`${niid.url}/verify`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ status: "error", message: "no such endpoint: GET /verify" });
  });
});

describe("publishing to the sandbox", () => {
  const policy = {
    policyNumber: "SBX/MTR/2026/000101",
    registrationNumber: "eky-777 qa",
    chassisNumber: "4T1BF1FK5CU512345",
    typeOfCover: "Comprehensive",
    vehicleMake: "Toyota",
    vehicleModel: "Camry",
    expiryDate: "2027-03-14",
    insurer: "Sandbox Insurance Plc",
  };

  test("a cached not_found is replaced; the plate and the policy number find it; it survives a restart", async () => {
    expect((await verify({ value: "EKY777QA" })).body.status).toBe("not_found");
    expect((await verify({ value: "EKY777QA" })).headers.get("x-cache")).toBe("HIT");

    const published = await niid.post("/sandbox/policies", policy);
    expect(published.status).toBe(201);
    expect(published.body).toEqual({ published: true });

    const details = {
      policy_number: "SBX/MTR/2026/000101",
      registration_number: "EKY777QA",
      chassis_number: "4T1BF1FK5CU512345",
      type_of_cover: "Comprehensive",
      vehicle_make: "Toyota",
      vehicle_model: "Camry",
      expiry_date: "14 Mar 2027",
      licence_status: "Active policy",
      insurer: "Sandbox Insurance Plc",
    };
    const [byPlate, byPolicy] = await Promise.all([verify({ value: "EKY777QA" }), verify({ search_type: "policy", value: "sbx/mtr/2026/000101" })]);
    expect(byPlate.headers.get("x-cache")).toBe("MISS");
    expect(byPlate.body).toEqual({ status: "found", details, message: "" });
    expect(byPolicy.body).toEqual({ status: "found", details, message: "" });
    expect(JSON.parse(readFileSync(sandboxFile, "utf8")).records).toEqual([{ ...policy, registrationNumber: "EKY777QA" }]);

    expect(await niid.stop()).toBe(0); // SIGTERM: a graceful exit
    niid = await startNiid(env);
    started.push(niid);
    const afterRestart = await verify({ value: "eky 777 qa" });
    expect(afterRestart.body).toEqual({ status: "found", details, message: "" });
  });

  test("400 naming the field for a bad publication", async () => {
    const missing = await niid.post("/sandbox/policies", { ...policy, insurer: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: "error", message: "insurer is required" });
    const badDate = await niid.post("/sandbox/policies", { ...policy, expiryDate: "14/03/2027" });
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toBe("expiryDate must be a date in the form YYYY-MM-DD");
  });
});
