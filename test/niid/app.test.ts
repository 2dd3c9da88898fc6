/** The verification app in process (app.handle): caching, de-duplication, licence status, publication. */
import { describe, expect, test } from "bun:test";
import { setLogLevel } from "../../src/core/log";
import type { RegistryRecord } from "../../src/core/niid-record";
import { createNiidApp, licenceStatus, type NiidAppOptions } from "../../src/niid/app";
import { normalisePlate, normalisePolicy, RegistryFault, SandboxRegistry, type SearchType, type VehicleRegistry } from "../../src/niid/registry";

setLogLevel("silent");

const record = (overrides: Partial<RegistryRecord> = {}): RegistryRecord => ({
  policyNumber: "AIICO/MTR/2025/111111",
  registrationNumber: "ABC123DE",
  chassisNumber: "2T1BURHEXFC674852",
  typeOfCover: "Third Party",
  vehicleMake: "Toyota",
  vehicleModel: "Corolla",
  expiryDate: "2027-03-14",
  insurer: "AIICO Insurance Plc",
  ...overrides,
});

/** A registry that counts its calls, answers from a list, and can be held until released or made to fail. */
class ScriptedRegistry implements VehicleRegistry {
  calls = 0;
  failWith?: Error;
  private held?: Promise<void>;
  private release?: () => void;
  constructor(public records: RegistryRecord[] = [record()]) {}

  hold() {
    this.held = new Promise((resolve) => (this.release = resolve));
  }
  letGo() {
    this.release?.();
    this.held = undefined;
  }

  /** The answer is read at once and delivered when let go, as a slow registry's would be. */
  async lookup(searchType: SearchType, value: string) {
    this.calls++;
    const failure = this.failWith;
    const found = this.records.find((r) =>
      searchType === "policy" ? normalisePolicy(r.policyNumber) === normalisePolicy(value) : normalisePlate(r.registrationNumber) === normalisePlate(value),
    );
    await this.held;
    if (failure) throw failure;
    return found ?? null;
  }
}

function niid(options: NiidAppOptions) {
  const app = createNiidApp(options);
  const send = async (path: string, body: unknown) => {
    const response = await app.handle(
      new Request(`http://niid.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  return { app, verify: (body: unknown) => send("/verify/vehicle", body), publish: (body: unknown) => send("/sandbox/policies", body) };
}

describe("cache", () => {
  test("concurrent identical lookups make one registry call", async () => {
    const registry = new ScriptedRegistry();
    registry.hold();
    const { verify } = niid({ registry });
    const pending = Promise.all([verify({ value: "ABC123DE" }), verify({ value: "abc-123-de" }), verify({ value: "ABC 123 DE" })]);
    await Bun.sleep(10);
    registry.letGo();
    const answers = await pending;
    expect(registry.calls).toBe(1);
    for (const answer of answers) expect(answer.body.status).toBe("found");
    // A policy-number lookup is a different question.
    await verify({ search_type: "policy", value: "AIICO/MTR/2025/111111" });
    expect(registry.calls).toBe(2);
  });

  test("answers are kept 5 minutes, found and not_found alike", async () => {
    const registry = new ScriptedRegistry();
    let at = Date.parse("2026-01-10T10:00:00Z");
    const { verify } = niid({ registry, now: () => new Date(at) });
    await verify({ value: "ABC123DE" });
    await verify({ value: "XYZ999ZZ" });
    at += 5 * 60_000 - 1;
    expect((await verify({ value: "ABC123DE" })).headers.get("x-cache")).toBe("HIT");
    expect((await verify({ value: "XYZ999ZZ" })).body.status).toBe("not_found");
    expect(registry.calls).toBe(2);
    at += 1;
    expect((await verify({ value: "ABC123DE" })).headers.get("x-cache")).toBe("MISS");
    expect(registry.calls).toBe(3);
  });

  test("errors are not kept: the next request asks the registry again", async () => {
    const registry = new ScriptedRegistry();
    registry.failWith = new RegistryFault("token_timeout", "no token");
    const { verify } = niid({ registry });
    expect((await verify({ value: "ABC123DE" })).status).toBe(504);
    registry.failWith = undefined;
    expect((await verify({ value: "ABC123DE" })).body.status).toBe("found");
    expect(registry.calls).toBe(2);
  });

  test("the cache is bounded: the oldest answer goes first", async () => {
    const registry = new ScriptedRegistry();
    const { verify } = niid({ registry, cacheMaxEntries: 2 });
    for (const value of ["AAA111AA", "BBB222BB", "CCC333CC"]) await verify({ value });
    expect(registry.calls).toBe(3);
    await verify({ value: "CCC333CC" });
    expect(registry.calls).toBe(3);
    await verify({ value: "AAA111AA" });
    expect(registry.calls).toBe(4);
  });

  test("a lookup that started before a publication does not cache its stale answer", async () => {
    const scripted = new ScriptedRegistry([]);
    const registry = Object.assign(scripted, { publish: async (r: RegistryRecord) => void scripted.records.push(r) });
    const { verify, publish } = niid({ registry });
    registry.hold();
    const before = verify({ value: "KJA555XX" });
    await Bun.sleep(5);
    expect((await publish(record({ registrationNumber: "KJA555XX" }))).status).toBe(201);
    registry.letGo();
    expect((await before).body.status).toBe("not_found");
    expect((await verify({ value: "KJA555XX" })).body.status).toBe("found");
    expect(registry.calls).toBe(2);
  });

  test("moving a policy to another plate forgets the old plate's cached answer", async () => {
    const registry = new SandboxRegistry({ latencyMinMs: 0, latencyMaxMs: 0, records: [] });
    const { verify, publish } = niid({ registry });
    await publish(record({ registrationNumber: "OLD111AA" }));
    expect((await verify({ value: "OLD111AA" })).body.status).toBe("found");
    await publish(record({ registrationNumber: "NEW222BB" }));
    expect((await verify({ value: "OLD111AA" })).body.status).toBe("not_found");
    expect((await verify({ value: "NEW222BB" })).body.details.policy_number).toBe("AIICO/MTR/2025/111111");
  });
});

describe("answers", () => {
  test("licence status: active through the expiry day in Nigerian time (UTC+1)", () => {
    expect(licenceStatus("2026-03-14", new Date("2026-03-14T22:59:59Z"))).toBe("Active policy");
    expect(licenceStatus("2026-03-14", new Date("2026-03-14T23:00:00Z"))).toBe("Expired policy");
    expect(licenceStatus("2026-03-14", new Date("2026-01-01T00:00:00Z"))).toBe("Active policy");
  });

  test("licence status is worked out when answering, also for a cached record", async () => {
    const registry = new ScriptedRegistry([record({ expiryDate: "2026-03-14" })]);
    let at = Date.parse("2026-03-14T22:58:00Z");
    const { verify } = niid({ registry, now: () => new Date(at) });
    expect((await verify({ value: "ABC123DE" })).body.details).toMatchObject({ expiry_date: "14 Mar 2026", licence_status: "Active policy" });
    at += 2 * 60_000;
    const cached = await verify({ value: "ABC123DE" });
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.body.details.licence_status).toBe("Expired policy");
  });

  test("an unexpected exception from the registry answers 502", async () => {
    const registry = new ScriptedRegistry();
    registry.failWith = new TypeError("Cannot read properties of undefined");
    const { verify } = niid({ registry });
    const { status, body } = await verify({ value: "ABC123DE" });
    expect(status).toBe(502);
    expect(body).toEqual({ status: "error", message: "the vehicle registry gave an unexpected response; retry later" });
  });

  test("refusals of the body: too large, empty, no letters or digits, too long", async () => {
    const { verify } = niid({ registry: new ScriptedRegistry(), maxBodyBytes: 100 });
    const tooLarge = await verify({ value: "A".repeat(200) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.status).toBe("error");
    expect((await verify("")).body.message).toBe("the request body is empty: send a JSON object");
    expect((await verify({ value: " - " })).body.message).toBe("value must contain letters or digits");
    expect((await verify({ value: "A".repeat(65) })).body.message).toBe("value must be at most 64 characters");
    expect((await verify("null")).body.message).toBe("the request body must be a JSON object; received null");
  });

  test("every answer is JSON and never stored by caches, unknown paths too", async () => {
    const { app } = niid({ registry: new ScriptedRegistry() });
    for (const request of [
      new Request("http://niid.test/healthz"),
      new Request("http://niid.test/nowhere"),
      new Request("http://niid.test/verify/vehicle", { method: "POST", body: "{" }),
    ]) {
      const response = await app.handle(request);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect((await response.json()).status).toBeDefined();
    }
  });
});

describe("publication", () => {
  test("unknown fields are refused, naming the fields expected", async () => {
    const { publish } = niid({ registry: new SandboxRegistry({ latencyMinMs: 0, latencyMaxMs: 0 }) });
    const { status, body } = await publish({ ...record(), policy_number: "X" });
    expect(status).toBe(400);
    const fields = "policyNumber, registrationNumber, chassisNumber, typeOfCover, vehicleMake, vehicleModel, expiryDate, insurer";
    expect(body.message).toBe(`unknown field: policy_number; the fields are ${fields}`);
    const badPlate = await publish(record({ registrationNumber: "ABC/123" }));
    expect(badPlate.body.message).toBe("registrationNumber must contain only letters and digits (spaces and hyphens are ignored)");
    const notString = await publish({ ...record(), vehicleMake: 7 });
    expect(notString.body.message).toBe("vehicleMake must be a string; received an integer");
  });

  test("a registry that cannot publish answers 404 in JSON", async () => {
    const { publish } = niid({ registry: new ScriptedRegistry() });
    const { status, body } = await publish(record());
    expect(status).toBe(404);
    expect(body).toEqual({ status: "error", message: "publishing is only available when the service runs the sandbox registry" });
  });
});
