/** The sandbox registry, its seeded data and the service's configuration. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RegistryRecord } from "../../src/core/niid-record";
import { loadNiidConfig } from "../../src/niid/config";
import { displayDate, watDate } from "../../src/niid/dates";
import { normaliseSearchValue, RegistryFault, SandboxRegistry } from "../../src/niid/registry";
import { sandboxRecords } from "../../src/niid/sandbox-data";

const directory = mkdtempSync(join(tmpdir(), "niid-registry-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const instant = { latencyMinMs: 0, latencyMaxMs: 0 };
const record = (overrides: Partial<RegistryRecord> = {}): RegistryRecord => ({
  policyNumber: "SBX/MTR/2026/000001",
  registrationNumber: "LSD100AA",
  chassisNumber: "5TDZKRFH9ES008492",
  typeOfCover: "Comprehensive",
  vehicleMake: "Toyota",
  vehicleModel: "Highlander",
  expiryDate: "2027-01-31",
  insurer: "Sandbox Insurance Plc",
  ...overrides,
});

describe("seeded data", () => {
  const today = new Date("2026-05-20T12:00:00Z");
  const records = sandboxRecords(today);

  test("about forty distinct vehicles in the registry's formats", () => {
    expect(records.length).toBe(40);
    expect(new Set(records.map((r) => r.registrationNumber)).size).toBe(40);
    expect(new Set(records.map((r) => r.policyNumber)).size).toBe(40);
    for (const r of records) {
      expect(r.registrationNumber).toMatch(/^[A-Z]{3}\d{3}[A-Z]{2}$/);
      expect(r.chassisNumber).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(r.policyNumber).toMatch(/^[A-Z]+\/MTR\/\d{4}\/\d{6}$/);
      expect(["Third Party", "Comprehensive"]).toContain(r.typeOfCover);
      expect(r.expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const plate of ["ABC123DE", "LSD482KJ", "KJA901AB", "ABJ334XY"]) expect(records.map((r) => r.registrationNumber)).toContain(plate);
  });

  test("expiry dates are counted from today: most in the future, a few expired", () => {
    const todayInNigeria = watDate(today);
    const expired = records.filter((r) => r.expiryDate < todayInNigeria);
    expect(expired.map((r) => r.registrationNumber).sort()).toEqual(["ABK461EN", "ILR694KW", "OSG233LX", "YOL903AD"]);
    expect(records.find((r) => r.registrationNumber === "KAD508FB")!.expiryDate).toBe(todayInNigeria);
    expect(records.find((r) => r.registrationNumber === "ABC123DE")!.expiryDate).toBe("2026-12-20"); // 214 days on
  });

  test("display dates read DD MMM YYYY", () => {
    expect(displayDate("2027-03-14")).toBe("14 Mar 2027");
    expect(displayDate("2026-12-01")).toBe("01 Dec 2026");
  });
});

describe("lookups", () => {
  test("plates ignore case, spaces and hyphens; policy numbers ignore case and surrounding spaces", async () => {
    const registry = new SandboxRegistry(instant);
    expect(normaliseSearchValue("registration", " abc-123 de ")).toBe("ABC123DE");
    expect(normaliseSearchValue("policy", " aiico/mtr/2025/920419 ")).toBe("AIICO/MTR/2025/920419");
    expect((await registry.lookup("registration", "abc - 123 - de"))?.policyNumber).toBe("AIICO/MTR/2025/920419");
    expect((await registry.lookup("policy", " aiico/mtr/2025/920419"))?.registrationNumber).toBe("ABC123DE");
    expect(await registry.lookup("registration", "ZZZ999ZZ")).toBeNull();
    expect(await registry.lookup("policy", "ABC123DE")).toBeNull();
  });

  test("every lookup waits the configured latency", async () => {
    const registry = new SandboxRegistry({ latencyMinMs: 40, latencyMaxMs: 60 });
    const started = performance.now();
    await registry.lookup("registration", "ABC123DE");
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
  });

  test("FAULT502 and FAULT504 values fail on purpose; the fault option fails every lookup", async () => {
    const registry = new SandboxRegistry(instant);
    await expect(registry.lookup("registration", "fault502")).rejects.toMatchObject({ kind: "unexpected" });
    await expect(registry.lookup("policy", "FAULT504/ANY")).rejects.toMatchObject({ kind: "token_timeout" });
    const failing = new SandboxRegistry({ ...instant, fault: "token_timeout" });
    const error = await failing.lookup("registration", "ABC123DE").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryFault);
    expect((error as RegistryFault).kind).toBe("token_timeout");
  });

  test("latency bounds must be in order", () => {
    expect(() => new SandboxRegistry({ latencyMinMs: 100, latencyMaxMs: 50 })).toThrow("latencyMaxMs must not be below latencyMinMs");
  });
});

describe("publication", () => {
  test("adds a record; a newer publication for the same plate wins lookups by plate", async () => {
    const registry = new SandboxRegistry(instant);
    await registry.publish(record({ registrationNumber: "ABC123DE" }));
    expect((await registry.lookup("registration", "ABC123DE"))?.policyNumber).toBe("SBX/MTR/2026/000001");
    // The older policy on that plate can still be found by its number.
    expect((await registry.lookup("policy", "AIICO/MTR/2025/920419"))?.registrationNumber).toBe("ABC123DE");
  });

  test("republishing a policy replaces it, and its old plate falls back to the plate's other policies", async () => {
    const registry = new SandboxRegistry(instant);
    await registry.publish(record({ registrationNumber: "ABC123DE" }));
    await registry.publish(record({ registrationNumber: "LSD100AA", vehicleModel: "Sienna" }));
    expect((await registry.lookup("registration", "ABC123DE"))?.policyNumber).toBe("AIICO/MTR/2025/920419");
    expect(await registry.lookup("registration", "LSD100AA")).toMatchObject({ policyNumber: "SBX/MTR/2026/000001", vehicleModel: "Sienna" });
  });

  test("published records are saved to the file and reloaded by the next registry, in publication order", async () => {
    const file = join(directory, "published.json");
    const first = new SandboxRegistry({ ...instant, file });
    await Promise.all([
      first.publish(record({ policyNumber: "SBX/1", registrationNumber: "LSD100AA", vehicleModel: "First" })),
      first.publish(record({ policyNumber: "SBX/2", registrationNumber: "LSD100AA", vehicleModel: "Second" })),
      first.publish(record({ policyNumber: "SBX/3", registrationNumber: "LSD300CC" })),
    ]);
    expect(readdirSync(directory).filter((name) => name.startsWith("published.json"))).toEqual(["published.json"]);

    const second = new SandboxRegistry({ ...instant, file });
    expect((await second.lookup("registration", "LSD100AA"))?.vehicleModel).toBe("Second");
    expect((await second.lookup("policy", "sbx/1"))?.vehicleModel).toBe("First");
    expect((await second.lookup("registration", "LSD300CC"))?.policyNumber).toBe("SBX/3");
    expect((await second.lookup("registration", "ABC123DE"))?.policyNumber).toBe("AIICO/MTR/2025/920419");
  });

  test("a file that is not a sandbox file stops the start with a clear message", () => {
    const broken = join(directory, "broken.json");
    writeFileSync(broken, "{ not json");
    expect(() => new SandboxRegistry({ file: broken })).toThrow(`sandbox file ${broken} is not valid JSON`);
    const wrong = join(directory, "wrong.json");
    writeFileSync(wrong, JSON.stringify({ records: [{ policyNumber: "X" }] }));
    expect(() => new SandboxRegistry({ file: wrong })).toThrow(`sandbox file ${wrong} is not a sandbox registry file: records.0.registrationNumber`);
  });
});

describe("configuration", () => {
  test("defaults: port 3001, the sandbox registry answering in 12–17 s, nothing persisted, no fault", () => {
    expect(loadNiidConfig({})).toEqual({
      NIID_PORT: 3001,
      NIID_REGISTRY: "sandbox",
      NIID_LATENCY_MIN_MS: 12_000,
      NIID_LATENCY_MAX_MS: 17_000,
      LOG_LEVEL: "info",
    });
  });

  test("empty variables count as unset; bad values are named", () => {
    expect(loadNiidConfig({ NIID_FAULT: "", NIID_SANDBOX_FILE: "" }).NIID_FAULT).toBeUndefined();
    expect(loadNiidConfig({ NIID_FAULT: "token_timeout", NIID_REGISTRY: "none" })).toMatchObject({ NIID_FAULT: "token_timeout", NIID_REGISTRY: "none" });
    expect(() => loadNiidConfig({ NIID_FAULT: "sometimes" })).toThrow("Invalid configuration: NIID_FAULT");
    expect(() => loadNiidConfig({ NIID_PORT: "http" })).toThrow("Invalid configuration: NIID_PORT");
    expect(() => loadNiidConfig({ NIID_LATENCY_MIN_MS: "500", NIID_LATENCY_MAX_MS: "100" })).toThrow(
      "Invalid configuration: NIID_LATENCY_MAX_MS: must not be below NIID_LATENCY_MIN_MS",
    );
  });
});
