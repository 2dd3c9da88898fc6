import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { RegistryRecord } from "../core/niid-record";
import { isoDate } from "../core/validation";
import { sandboxRecords } from "./sandbox-data";

/** How a lookup names the vehicle: by its plate or by its insurance policy number. */
export type SearchType = "registration" | "policy";
export const SEARCH_TYPES = ["registration", "policy"] as const satisfies readonly SearchType[];

/** The national vehicle-insurance registry behind the service; the sandbox is one, a real adapter another. */
export interface VehicleRegistry {
  /** The record for the vehicle, or null when the registry has none. Throws RegistryFault when the registry misbehaves. */
  lookup(searchType: SearchType, value: string): Promise<RegistryRecord | null>;
  /** Add or replace a record (sandbox only: the real registry is fed by insurers). */
  publish?(record: RegistryRecord): Promise<void>;
}

export type RegistryFaultKind = "unexpected" | "token_timeout";

/** The registry failed: "unexpected" answers 502, "token_timeout" (anti-automation token pool exhausted) 504. */
export class RegistryFault extends Error {
  constructor(
    readonly kind: RegistryFaultKind,
    message: string,
  ) {
    super(message);
    this.name = "RegistryFault";
  }
}

/** Plates are compared without spaces or hyphens and case-insensitively ("abc-123 de" is ABC123DE). */
export const normalisePlate = (value: string) => value.replace(/[\s-]+/g, "").toUpperCase();
/** Policy numbers are compared trimmed and case-insensitively. */
export const normalisePolicy = (value: string) => value.trim().toUpperCase();
export const normaliseSearchValue = (searchType: SearchType, value: string) => (searchType === "registration" ? normalisePlate(value) : normalisePolicy(value));

const field = (max: number) => z.string().trim().min(1).max(max);

/** A record as published to the sandbox (POST /sandbox/policies) and as kept in NIID_SANDBOX_FILE. */
export const registryRecordSchema = z.strictObject({
  policyNumber: field(64),
  registrationNumber: z
    .string()
    .transform(normalisePlate)
    .pipe(
      z
        .string()
        .min(1)
        .max(15)
        .regex(/^[A-Z0-9]+$/, "must contain only letters and digits (spaces and hyphens are ignored)"),
    ),
  chassisNumber: field(32).transform((s) => s.toUpperCase()),
  typeOfCover: field(64),
  vehicleMake: field(64),
  vehicleModel: field(64),
  expiryDate: isoDate,
  insurer: field(128),
});

const sandboxFileSchema = z.object({ records: z.array(registryRecordSchema) });

export interface SandboxOptions {
  /** Each lookup that reaches the registry waits a random time in [min, max] (the real one takes 12–17 s). */
  latencyMinMs?: number;
  latencyMaxMs?: number;
  /** Make every lookup fail this way (demos and tests). */
  fault?: RegistryFaultKind;
  /** Where published records are kept across restarts (JSON); in memory only without it. */
  file?: string;
  /** The seeded vehicles; the built-in data set by default. */
  records?: RegistryRecord[];
}

/** Lookups whose value starts with these fail on purpose, so partners can exercise their error handling. */
const FAULT_PREFIXES: [string, RegistryFaultKind][] = [
  ["FAULT502", "unexpected"],
  ["FAULT504", "token_timeout"],
];

const faultMessages: Record<RegistryFaultKind, string> = {
  unexpected: "the registry answered with a page the service could not read",
  token_timeout: "no anti-automation token became available in time",
};

/**
 * The built-in registry for test mode and local work: seeded vehicles plus what the main service
 * publishes for the policies it approves. A newer publication for a plate wins lookups by plate.
 */
export class SandboxRegistry implements VehicleRegistry {
  private readonly latencyMinMs: number;
  private readonly latencyMaxMs: number;
  private readonly fault?: RegistryFaultKind;
  private readonly file?: string;
  /** Every record by policy key, with the order it arrived in (seeds first). */
  private readonly byPolicy = new Map<string, { record: RegistryRecord; order: number }>();
  /** Policy keys per plate: several policies can name one vehicle over time. */
  private readonly byPlate = new Map<string, Set<string>>();
  /** Published records in publication order: what the file holds. */
  private readonly published = new Map<string, RegistryRecord>();
  private arrivals = 0;
  /** File writes run one after another, so the last write holds every publication. */
  private writes: Promise<void> = Promise.resolve();

  constructor(options: SandboxOptions = {}) {
    this.latencyMinMs = options.latencyMinMs ?? 12_000;
    this.latencyMaxMs = options.latencyMaxMs ?? 17_000;
    if (this.latencyMaxMs < this.latencyMinMs) throw new Error("sandbox registry: latencyMaxMs must not be below latencyMinMs");
    this.fault = options.fault;
    this.file = options.file;
    for (const record of options.records ?? sandboxRecords()) this.store(record);
    for (const record of this.readFile()) {
      this.store(record);
      this.published.set(normalisePolicy(record.policyNumber), record);
    }
  }

  async lookup(searchType: SearchType, value: string): Promise<RegistryRecord | null> {
    const key = normaliseSearchValue(searchType, value);
    await Bun.sleep(this.latencyMinMs + Math.random() * (this.latencyMaxMs - this.latencyMinMs));
    const fault = this.fault ?? FAULT_PREFIXES.find(([prefix]) => key.startsWith(prefix))?.[1];
    if (fault) throw new RegistryFault(fault, faultMessages[fault]);
    const found = searchType === "policy" ? this.byPolicy.get(key) : this.latestForPlate(key);
    return found ? { ...found.record } : null;
  }

  async publish(record: RegistryRecord): Promise<void> {
    const key = normalisePolicy(record.policyNumber);
    const write = this.writes.then(async () => {
      // Disk first: a publication that could not be saved is not answered as published.
      if (this.file) {
        const records = [...this.published].filter(([k]) => k !== key).map(([, r]) => r);
        await writeAtomically(this.file, JSON.stringify({ records: [...records, record] }, null, 2));
      }
      this.published.delete(key); // re-inserted last: the file keeps publication order
      this.published.set(key, { ...record });
      this.store(record);
    });
    this.writes = write.catch(() => undefined);
    await write;
  }

  private store(record: RegistryRecord) {
    const key = normalisePolicy(record.policyNumber);
    const previous = this.byPolicy.get(key);
    if (previous) {
      const plate = normalisePlate(previous.record.registrationNumber);
      this.byPlate.get(plate)?.delete(key);
      if (this.byPlate.get(plate)?.size === 0) this.byPlate.delete(plate);
    }
    this.byPolicy.set(key, { record: { ...record }, order: this.arrivals++ });
    const plate = normalisePlate(record.registrationNumber);
    const policies = this.byPlate.get(plate) ?? new Set<string>();
    policies.add(key);
    this.byPlate.set(plate, policies);
  }

  private latestForPlate(plate: string) {
    let latest: { record: RegistryRecord; order: number } | undefined;
    for (const key of this.byPlate.get(plate) ?? []) {
      const candidate = this.byPolicy.get(key);
      if (candidate && (!latest || candidate.order > latest.order)) latest = candidate;
    }
    return latest;
  }

  private readFile(): RegistryRecord[] {
    if (!this.file || !existsSync(this.file)) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.file, "utf8"));
    } catch (error) {
      throw new Error(`sandbox file ${this.file} is not valid JSON: ${(error as Error).message}`);
    }
    const result = sandboxFileSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      throw new Error(`sandbox file ${this.file} is not a sandbox registry file: ${issue.path.join(".")}: ${issue.message}`);
    }
    return result.data.records;
  }
}

/** Write through a temporary file and rename it into place, so a crash never leaves half a file. */
async function writeAtomically(path: string, content: string) {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}
