import { Elysia } from "elysia";
import { z } from "zod";
import { CommandError } from "../core/errors";
import { log } from "../core/log";
import type { RegistryRecord } from "../core/niid-record";
import { describeIssue, jsonKind } from "../core/validation";
import { type BodyPace, readBoundedBody } from "../http/body";
import { type CachedAnswer, RegistryCache } from "./cache";
import { displayDate, watDate } from "./dates";
import { normaliseSearchValue, RegistryFault, registryRecordSchema, SEARCH_TYPES, type SearchType, type VehicleRegistry } from "./registry";

/** `details` of a found vehicle: the registry's fields in the wire's words. */
export interface VehicleDetails {
  policy_number: string;
  registration_number: string;
  chassis_number: string;
  type_of_cover: string;
  vehicle_make: string;
  vehicle_model: string;
  /** DD MMM YYYY, e.g. "14 Mar 2027" */
  expiry_date: string;
  licence_status: LicenceStatus;
  insurer: string;
}

export type LicenceStatus = "Active policy" | "Expired policy";

/** A lookup's answer (HTTP 200). */
export type VerifyAnswer = { status: "found"; details: VehicleDetails; message: "" } | { status: "not_found"; details: Record<string, never>; message: string };

/** The body of every refusal, on any path: 400, 404, 413, 500, 502, 503, 504. */
export interface ErrorBody {
  status: "error";
  message: string;
}

export interface NiidAppOptions {
  /** The registry behind the service; without one, lookups answer 503 (not configured). */
  registry?: VehicleRegistry;
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** Largest request body accepted (413 beyond). */
  maxBodyBytes?: number;
  /** How fast a body must arrive (408 when it falls behind): a lookup is a few dozen bytes, so ten seconds at most by default. */
  bodyPace?: BodyPace;
  /** The clock for licence status and cache expiry (tests pin it). */
  now?: () => Date;
}

const verifySchema = z.object({
  search_type: z.enum(SEARCH_TYPES).default("registration"),
  value: z.string().trim().min(1).max(64),
});

/** A policy is active through the last day of its cover, in Nigerian time. */
export function licenceStatus(expiryDate: string, now: Date): LicenceStatus {
  return expiryDate >= watDate(now) ? "Active policy" : "Expired policy";
}

function vehicleDetails(record: RegistryRecord, now: Date): VehicleDetails {
  return {
    policy_number: record.policyNumber,
    registration_number: record.registrationNumber,
    chassis_number: record.chassisNumber,
    type_of_cover: record.typeOfCover,
    vehicle_make: record.vehicleMake,
    vehicle_model: record.vehicleModel,
    expiry_date: displayDate(record.expiryDate),
    licence_status: licenceStatus(record.expiryDate, now),
    insurer: record.insurer,
  };
}

/** A refusal with its HTTP status, thrown by the request steps and answered as `{ status: "error", message }`. */
class Refusal extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
  }
}

/** The body as a JSON object, or a 400/413 refusal saying what is wrong with it. */
async function readJsonObject(request: Request, limits: { maxBytes: number; pace: BodyPace }): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readBoundedBody(request, limits);
  } catch (error) {
    if (error instanceof CommandError) throw new Refusal(error.status, error.message);
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Refusal(400, text.trim() === "" ? "the request body is empty: send a JSON object" : "the request body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new Refusal(400, `the request body must be a JSON object; received ${jsonKind(body)}`);
  return body as Record<string, unknown>;
}

function parseBody<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === "unrecognized_keys" && issue.path.length === 0)
    throw new Refusal(
      400,
      `unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}` +
        (schema instanceof z.ZodObject ? `; the fields are ${Object.keys(schema.shape).join(", ")}` : ""),
    );
  throw new Refusal(400, describeIssue(issue, body, "").message);
}

const searchWords: Record<SearchType, string> = { registration: "registration number", policy: "policy number" };

/**
 * The vehicle verification service (spec 4.4), without listening: main.ts listens, tests call
 * app.handle(). Every answer is JSON, errors included.
 */
export function createNiidApp(options: NiidAppOptions = {}) {
  const now = options.now ?? (() => new Date());
  const bodyLimits = { maxBytes: options.maxBodyBytes ?? 16 * 1024, pace: options.bodyPace ?? { timeoutMs: 10_000, minBytesPerSecond: 4096 } };
  const { registry } = options;
  const cache = registry && new RegistryCache(registry, { ttlMs: options.cacheTtlMs, maxEntries: options.cacheMaxEntries, clock: () => now().getTime() });

  async function verify(request: Request): Promise<{ body: VerifyAnswer; fromCache: boolean }> {
    if (!cache) throw new Refusal(503, "vehicle verification is not configured on this service: no registry is connected");
    const input = parseBody(verifySchema, await readJsonObject(request, bodyLimits));
    const value = normaliseSearchValue(input.search_type, input.value);
    if (value === "") throw new Refusal(400, "value must contain letters or digits");

    let answer: CachedAnswer;
    try {
      answer = await cache.lookup(input.search_type, value);
    } catch (error) {
      if (error instanceof RegistryFault) log.warn("registry fault", { kind: error.kind, message: error.message });
      else log.error("registry lookup failed", { searchType: input.search_type, error });
      if (error instanceof RegistryFault && error.kind === "token_timeout")
        throw new Refusal(504, "the registry's anti-automation token pool timed out; retry the request in a few seconds");
      throw new Refusal(502, "the vehicle registry gave an unexpected response; retry later");
    }
    const { record, fromCache } = answer;
    if (!record)
      return {
        body: { status: "not_found", details: {}, message: `no insurance record was found for ${searchWords[input.search_type]} ${value}` },
        fromCache,
      };
    return { body: { status: "found", details: vehicleDetails(record, now()), message: "" }, fromCache };
  }

  async function publish(request: Request): Promise<{ published: true }> {
    if (!registry?.publish) throw new Refusal(404, "publishing is only available when the service runs the sandbox registry");
    const record = parseBody(registryRecordSchema, await readJsonObject(request, bodyLimits));
    await registry.publish(record);
    // After the registry has it: a lookup racing the publication cannot re-cache the old answer.
    cache?.invalidate(record);
    log.info("policy published", { policyNumber: record.policyNumber });
    return { published: true };
  }

  const arrivals = new WeakMap<Request, { startedAt: number; method: string; path: string }>();

  return new Elysia({ name: "niid" })
    .onError(({ code, error, set, request }): ErrorBody => {
      if (error instanceof Refusal) {
        set.status = error.httpStatus;
        return { status: "error", message: error.message };
      }
      if (code === "NOT_FOUND") {
        set.status = 404;
        return { status: "error", message: `no such endpoint: ${request.method} ${new URL(request.url).pathname}` };
      }
      log.error("request failed", { code, error });
      set.status = 500;
      return { status: "error", message: "internal error: the request was not completed" };
    })
    .onRequest(({ request, set }) => {
      // Answers depend on the moment (licence status, publications): never stored by proxies.
      set.headers["cache-control"] = "no-store";
      // Noted now, unknown paths included: Bun has released the request by the time after-response hooks run.
      arrivals.set(request, { startedAt: performance.now(), method: request.method, path: new URL(request.url).pathname });
    })
    .onAfterResponse(({ request, set }) => {
      const arrival = arrivals.get(request);
      if (!arrival) return;
      const { startedAt, method, path } = arrival;
      log.info("request", { method, path, status: set.status, ms: Math.round(performance.now() - startedAt) });
    })
    .get("/healthz", () => ({ status: "ok" as const }))
    .post(
      "/verify/vehicle",
      async ({ request, set }) => {
        const { body, fromCache } = await verify(request);
        set.headers["x-cache"] = fromCache ? "HIT" : "MISS";
        return body;
      },
      { parse: "none" },
    )
    .post(
      "/sandbox/policies",
      async ({ request, set }) => {
        const published = await publish(request);
        set.status = 201;
        return published;
      },
      { parse: "none" },
    );
}
