import { and, eq, gte, lt, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { isMonth, MONTH_RULE, parseWith } from "../../core/validation";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { registrySeed } from "./model";
import { normaliseRegistryValue, type SearchType, type VehicleRegistry } from "./registry";
import { type RegistryAnswer, registryLookups, type UsageService, usageCharges } from "./schema";
import { type VinDecode, type VinDecoder, validVin } from "./vin";

/** Answers of the registry are reused for five minutes; those repeats are free (spec 4.3, 8). */
const REGISTRY_CACHE_MS = 5 * 60_000;
/** Price of a registry check that reached the registry (found or not_found), kobo (spec 8). */
const REGISTRY_CHECK_PRICE_KOBO = 150_00;

export interface Caller {
  partnerId: string;
  mode: "test" | "live";
  /** The person who asked (the portal), for the audit row written with the usage row; a system's checks are in the API log. */
  actor?: AuditActor;
}

/**
 * The registry's answer for a value: from the shared five-minute cache when fresh, else from the
 * registry (and cached). Registry failures throw CommandError 502/503/504 and cache nothing.
 */
export async function registryAnswer(
  db: Executor,
  registry: VehicleRegistry | null,
  searchType: SearchType,
  rawValue: string,
  now: Date,
): Promise<{ answer: RegistryAnswer; fromCache: boolean }> {
  const value = normaliseRegistryValue(searchType, rawValue);
  const [cached] = await db
    .select({ answer: registryLookups.answer })
    .from(registryLookups)
    .where(
      and(
        eq(registryLookups.searchType, searchType),
        eq(registryLookups.value, value),
        gte(registryLookups.fetchedAt, new Date(now.getTime() - REGISTRY_CACHE_MS)),
      ),
    );
  if (cached) return { answer: cached.answer, fromCache: true };
  if (!registry) throw new CommandError(503, "vehicle registry is not configured on this service");
  const answer = await registry.lookup(searchType, value);
  await db
    .insert(registryLookups)
    .values({ searchType, value, answer, fetchedAt: now })
    .onConflictDoUpdate({ target: [registryLookups.searchType, registryLookups.value], set: { answer, fetchedAt: now } });
  return { answer, fromCache: false };
}

async function recordUsage(
  db: Executor,
  caller: Caller,
  entry: { service: UsageService; subject: string; outcome: string; fromCache: boolean; amountKobo: number },
  now: Date,
) {
  await db.insert(usageCharges).values({ id: newId(), partnerId: caller.partnerId, mode: caller.mode, ...entry, createdAt: now });
}

/** What a registry check costs: 150 naira when it reached the registry in live mode; cache hits and test mode are free. */
export const registryCheckPrice = (fromCache: boolean, mode: Caller["mode"]) => (fromCache || mode === "test" ? 0 : REGISTRY_CHECK_PRICE_KOBO);

export interface RegistryCheck extends RegistryAnswer {
  from_cache: boolean;
}

/**
 * `enrch niid_vehicle` (spec 4.3): the registry's answer, billed 150 naira when it reached the
 * registry in live mode; cache hits and test mode are free. Failures are neither logged nor billed.
 */
export async function checkVehicleRegistry(
  db: Database,
  registry: VehicleRegistry | null,
  caller: Caller,
  rawSeed: unknown,
  now: Date,
): Promise<RegistryCheck> {
  const seed = parseWith(registrySeed, rawSeed ?? {});
  const { answer, fromCache } = await registryAnswer(db, registry, seed.search_type, seed.value, now);
  const subject = `${seed.search_type}:${normaliseRegistryValue(seed.search_type, seed.value)}`;
  const amountKobo = registryCheckPrice(fromCache, caller.mode);
  const usage = { service: "registry_check", subject, outcome: answer.status, fromCache, amountKobo } as const;
  const { actor } = caller;
  if (!actor) await recordUsage(db, caller, usage, now);
  else
    await db.transaction(async (tx) => {
      await recordUsage(tx, caller, usage, now);
      await recordAudit(tx, actor, { action: "vehicle.check", subject, details: { status: answer.status, fromCache, amountKobo } }, now);
    });
  return { ...answer, from_cache: fromCache };
}

/** `enrch vin_vehicle` (spec 4.3): decoded offline; usage is logged, never billed. */
export async function decodeVin(db: Database, decoder: VinDecoder, caller: Caller, rawSeed: unknown, now: Date): Promise<VinDecode> {
  const seed = (rawSeed ?? {}) as { vin?: unknown };
  if (typeof seed !== "object" || Array.isArray(seed)) throw new CommandError(400, "seed must be an object with vin");
  const vin = validVin(seed.vin);
  const decoded = await decoder.decode(vin);
  const usage = { service: "vin_decode", subject: vin, outcome: decoded.make ? "decoded" : "unknown", fromCache: false, amountKobo: 0 } as const;
  const { actor } = caller;
  if (!actor) await recordUsage(db, caller, usage, now);
  else
    await db.transaction(async (tx) => {
      await recordUsage(tx, caller, usage, now);
      await recordAudit(tx, actor, { action: "vehicle.vin_decode", subject: vin, details: { decoded: Boolean(decoded.make) } }, now);
    });
  return decoded;
}

interface StatementLine {
  service: UsageService;
  mode: "test" | "live";
  calls: number;
  billedCalls: number;
  amountKobo: number;
}

export interface UsageStatement {
  partnerId: string;
  /** YYYY-MM, Nigerian time. */
  month: string;
  lines: StatementLine[];
  totalKobo: number;
}

const WAT_OFFSET_MS = 3_600_000;

/** The calendar month `YYYY-MM` in Nigerian time as [start, end) instants. */
export function watMonth(month: string): [Date, Date] {
  if (!isMonth(month)) throw new CommandError(400, `month must be ${MONTH_RULE}; received "${month}"`, "month");
  const [year, monthIndex] = month.split("-").map(Number) as [number, number];
  return [new Date(Date.UTC(year, monthIndex - 1, 1) - WAT_OFFSET_MS), new Date(Date.UTC(year, monthIndex, 1) - WAT_OFFSET_MS)];
}

export const currentWatMonth = (now: Date) => new Date(now.getTime() + WAT_OFFSET_MS).toISOString().slice(0, 7);

/** The monthly usage statement of a partner: calls and charges per enrichment service and mode. */
export async function usageStatement(db: Database, partnerId: string, month: string): Promise<UsageStatement> {
  const [from, to] = watMonth(month);
  const rows = await db
    .select({
      service: usageCharges.service,
      mode: usageCharges.mode,
      calls: sql<number>`count(*)::int`,
      billedCalls: sql<number>`(count(*) filter (where ${usageCharges.amountKobo} > 0))::int`,
      amountKobo: sql<number>`coalesce(sum(${usageCharges.amountKobo}), 0)::bigint`,
    })
    .from(usageCharges)
    .where(and(eq(usageCharges.partnerId, partnerId), gte(usageCharges.createdAt, from), lt(usageCharges.createdAt, to)))
    .groupBy(usageCharges.service, usageCharges.mode)
    .orderBy(usageCharges.service, usageCharges.mode);
  const lines = rows.map((row) => ({ ...row, amountKobo: Number(row.amountKobo) }));
  return { partnerId, month, lines, totalKobo: lines.reduce((total, line) => total + line.amountKobo, 0) };
}
