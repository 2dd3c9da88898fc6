import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import type { RegistryRecord } from "../../core/niid-record";
import { storableText } from "../../core/validation";
import { normalisePlate } from "../../products/vehicle/plate";
import type { RegistryAnswer } from "./schema";

export type SearchType = "registration" | "policy";

/** What the main service publishes to the sandbox registry for each approved vehicle policy: the wire shape of POST /sandbox/policies. */
export type PublishedPolicy = RegistryRecord;

/** The vehicle verification service (spec 4.4) as the main service uses it. */
export interface VehicleRegistry {
  /** found / not_found; throws CommandError 502, 503 or 504 for the registry's failures (retry). */
  lookup(searchType: SearchType, value: string): Promise<RegistryAnswer>;
  publish(policy: PublishedPolicy): Promise<void>;
}

/** Registration numbers are compared as one plate rule says (spaces and hyphens do not matter), policy numbers as written; both case-insensitively. */
export function normaliseRegistryValue(searchType: SearchType, value: string): string {
  return searchType === "registration" ? normalisePlate(value) : value.trim().toUpperCase();
}

const unavailable = (status: 502 | 503 | 504, message: string) => new CommandError(status, message);

/**
 * The registry's record as text our columns hold: its words reach a decline's note and events, where
 * one NUL or unpaired surrogate would fail the whole underwriting batch, again at every pass.
 */
const storableDetails = (details: Record<string, string>) =>
  Object.fromEntries(Object.entries(details).map(([name, value]) => [storableText(name), typeof value === "string" ? storableText(value) : value]));

/** The verification service over HTTP at `baseUrl`, waiting at most `timeoutMs` for an answer. */
export function httpVehicleRegistry(baseUrl: string, timeoutMs: number): VehicleRegistry {
  const url = (path: string) => `${baseUrl.replace(/\/$/, "")}${path}`;
  async function post(path: string, body: unknown): Promise<Response> {
    try {
      return await fetch(url(path), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as Error).name === "TimeoutError") throw unavailable(504, `vehicle registry check timed out after ${Math.round(timeoutMs / 1000)} s: retry`);
      throw unavailable(502, "vehicle registry is unreachable: retry later");
    }
  }
  return {
    async lookup(searchType, value) {
      const response = await post("/verify/vehicle", { search_type: searchType, value });
      const answer = (await response.json().catch(() => null)) as Partial<RegistryAnswer> | null;
      if (response.status === 504) throw unavailable(504, "vehicle registry check timed out (its token pool was exhausted): retry");
      if (response.status === 503) throw unavailable(503, "vehicle registry is not configured");
      if (response.ok && (answer?.status === "found" || answer?.status === "not_found"))
        return {
          status: answer.status,
          details: storableDetails(answer.details ?? {}),
          message: typeof answer.message === "string" ? storableText(answer.message) : "",
        };
      throw unavailable(502, `vehicle registry gave an unexpected answer (HTTP ${response.status}): retry`);
    },
    async publish(policy) {
      const response = await post("/sandbox/policies", policy);
      if (!response.ok) throw unavailable(502, `vehicle registry refused the publication (HTTP ${response.status}): ${(await response.text()).slice(0, 200)}`);
    },
  };
}

/** The configured registry, or null when NIID_URL is unset (and none was started beside us). */
export const configuredRegistry = (config: Config): VehicleRegistry | null =>
  config.NIID_URL ? httpVehicleRegistry(config.NIID_URL, config.NIID_TIMEOUT_MS) : null;
