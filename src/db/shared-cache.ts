import { sql } from "drizzle-orm";
import type { Executor } from "./client";

/**
 * Rows of the hot paths (verified keys, consumers being insured) kept briefly in memory, so a
 * repeat costs no database round trip (docs/performance.md).
 *
 * Correctness does not rest on the expiry: whatever changes a cached row calls `announce` in its
 * transaction — a PostgreSQL NOTIFY on the cache's channel, delivered to every instance at commit,
 * which src/main.ts turns into `forget` — and `forget` itself once committed, so this instance's
 * very next request sees the change. The expiry only bounds what a lost notification could leave.
 *
 * Entries belong to a group (a partner for keys, the consumer itself for consumers): a change
 * forgets its whole group.
 */
export class SharedCache<V> {
  private entries = new Map<string, { value: V; group: string; expiresAt: number }>();
  private keysOf = new Map<string, Set<string>>();
  /** Bumped by every forget: a lookup that started before it must not store what it read. */
  private generation = 0;

  constructor(
    /** The NOTIFY channel; its payload is the group that changed. */
    readonly channel: string,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 50_000,
  ) {
    sharedCaches.push(this);
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.remove(key);
    return undefined;
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.keysOf.get(entry.group);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOf.delete(entry.group);
  }

  /** `key`'s value, loaded with `load` on a miss; kept unless a forget happened meanwhile. */
  async through(key: string, load: () => Promise<V | undefined>, groupOf: (value: V) => string): Promise<V | undefined> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const startedAt = this.generation;
    const value = await load();
    if (value !== undefined && startedAt === this.generation) {
      // Insertion order: the oldest entry goes first when full.
      if (this.entries.size >= this.maxEntries) this.remove(this.entries.keys().next().value!);
      this.remove(key);
      const group = groupOf(value);
      this.entries.set(key, { value, group, expiresAt: Date.now() + this.ttlMs });
      let keys = this.keysOf.get(group);
      if (!keys) this.keysOf.set(group, (keys = new Set()));
      keys.add(key);
    }
    return value;
  }

  /** Tell every instance, at commit of `tx`, that `group` changed. Call `forget` after the commit. */
  async announce(tx: Executor, group: string): Promise<void> {
    await tx.execute(sql`select pg_notify(${this.channel}, ${group})`);
  }

  /** `group` changed: drop everything cached of it. */
  forget(group: string) {
    this.generation++;
    for (const key of this.keysOf.get(group) ?? []) this.remove(key);
  }

  /** Notifications may have been missed (the listener reconnected): start afresh. */
  clear() {
    this.generation++;
    this.entries.clear();
    this.keysOf.clear();
  }
}

/** Every cache of this process, for src/main.ts to listen on their channels. */
export const sharedCaches: SharedCache<any>[] = [];
