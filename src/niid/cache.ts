import type { RegistryRecord } from "../core/niid-record";
import { normalisePlate, normalisePolicy, type SearchType, type VehicleRegistry } from "./registry";

export interface CacheOptions {
  /** How long an answer is reused (spec 8: 5 minutes). */
  ttlMs?: number;
  /** At most this many answers are kept; the oldest goes first. */
  maxEntries?: number;
  /** Milliseconds now (tests move it). */
  clock?: () => number;
}

export interface CachedAnswer {
  record: RegistryRecord | null;
  /** True when no registry call was made for this request. */
  fromCache: boolean;
}

/**
 * The registry takes 12–17 s per lookup and meters its anti-automation tokens, so found and
 * not-found answers are kept for a while and identical lookups already under way are joined.
 * Failures are never kept: the next request tries the registry again.
 */
export class RegistryCache {
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;
  /** Map order is insertion order: the first key is the oldest entry. */
  private readonly entries = new Map<string, { record: RegistryRecord | null; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<RegistryRecord | null>>();
  /** Bumped by every invalidation: a lookup that started before one must not store its (maybe stale) answer. */
  private generation = 0;

  constructor(
    private readonly registry: VehicleRegistry,
    options: CacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.clock = options.clock ?? Date.now;
  }

  /** `value` must already be normalised (normaliseSearchValue): it is the cache key. */
  async lookup(searchType: SearchType, value: string): Promise<CachedAnswer> {
    const key = cacheKey(searchType, value);
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.clock()) return { record: cached.record, fromCache: true };
    if (cached) this.entries.delete(key);

    let pending = this.inFlight.get(key);
    if (!pending) {
      const startedIn = this.generation;
      pending = this.registry.lookup(searchType, value).then((record) => {
        if (this.generation === startedIn) this.remember(key, record);
        return record;
      });
      this.inFlight.set(key, pending);
      const settled = pending;
      void settled.then(
        () => this.forgetFlight(key, settled),
        () => this.forgetFlight(key, settled),
      );
    }
    return { record: await pending, fromCache: false };
  }

  /** Forget every answer about this record's plate or policy number, including one under its old plate. */
  invalidate(record: RegistryRecord): void {
    this.generation++;
    const policy = normalisePolicy(record.policyNumber);
    const keys = [cacheKey("registration", normalisePlate(record.registrationNumber)), cacheKey("policy", policy)];
    for (const key of keys) {
      this.entries.delete(key);
      this.inFlight.delete(key);
    }
    for (const [key, entry] of this.entries) if (entry.record && normalisePolicy(entry.record.policyNumber) === policy) this.entries.delete(key);
  }

  private remember(key: string, record: RegistryRecord | null) {
    this.entries.delete(key);
    this.entries.set(key, { record, expiresAt: this.clock() + this.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  private forgetFlight(key: string, flight: Promise<RegistryRecord | null>) {
    // An invalidation may already have replaced this flight with a newer one.
    if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
  }
}

const cacheKey = (searchType: SearchType, value: string) => `${searchType}:${value}`;
