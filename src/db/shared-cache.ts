import { sql } from "drizzle-orm";
import { log } from "../core/log";
import { getOrMake } from "../core/maps";
import type { DatabaseHandle, Executor } from "./client";
import { resultRows } from "./results";

/** How long a change waits for every instance to confirm it before answering anyway (the expiry still bounds staleness). */
const CONFIRM_TIMEOUT_MS = 2_000;
/** Changes of this process still awaiting confirmation (one whose transaction failed never settles). */
const MAX_PENDING_CHANGES = 10_000;
/** Where servers confirm notices: payload `<token> <instance key>`. */
const CONFIRM_CHANNEL = "cache_confirmed";
/** Advisory-lock class held by every server for as long as it runs (one key per process): the list of running instances. */
export const INSTANCE_LOCK_CLASS = 727_002;

/**
 * Rows of the hot paths (verified keys, consumers being insured) kept briefly in memory, so a
 * repeat costs no database round trip (docs/performance.md).
 *
 * Correctness does not rest on the expiry: whatever changes a cached row calls `announce` in its
 * transaction — a PostgreSQL NOTIFY on the cache's channel, delivered to every instance at commit,
 * which each server turns into `forget` — and `settle` once committed. The expiry only bounds what
 * a lost notification could leave.
 *
 * "At once" on every instance: NOTIFY is delivered asynchronously, so an answer sent right after the
 * commit can reach the client, and the client's next request another instance, before that instance
 * has read the notice. test/reliability-instances.test.ts saw a revoked key accepted and a mode
 * switch ignored that way, also when the changing instance first waited for its own notice to come
 * back. So every server confirms each notice once it has forgotten the group (a NOTIFY on
 * CONFIRM_CHANNEL), and `settle` waits for the confirmations of every running instance — the
 * processes holding an INSTANCE_LOCK_CLASS advisory lock, which ends with their connection — before
 * the change is answered. An instance that does not confirm within CONFIRM_TIMEOUT_MS is logged and
 * the answer goes out; its entries still expire.
 *
 * Entries belong to a group (a partner for keys, the consumer itself for consumers): a change
 * forgets its whole group. A notice's payload is the group, a space and the change's token.
 */
export class SharedCache<V> {
  private entries = new Map<string, { value: V; group: string; expiresAt: number }>();
  private keysOf = new Map<string, Set<string>>();
  /** Bumped by every forget: a lookup that started before it must not store what it read. */
  private generation = 0;

  constructor(
    /** The NOTIFY channel; its payload is the group that changed (and the change's token). */
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
      getOrMake(this.keysOf, group, () => new Set()).add(key);
    }
    return value;
  }

  /** Tell every instance, at commit of `tx`, that `group` changed. After the commit, call `settle(group, token)` with the token returned. */
  async announce(tx: Executor, group: string): Promise<string> {
    const token = crypto.randomUUID();
    network?.expect(token);
    await tx.execute(sql`select pg_notify(${this.channel}, ${`${group} ${token}`})`);
    return token;
  }

  /**
   * After the commit of a change announced with `token`: forget `group` here, then (when this
   * process is on the cache network) wait until every running instance has confirmed it forgot it
   * too, so that the answer about the change cannot overtake the notice.
   */
  async settle(group: string, token: string | undefined): Promise<void> {
    this.forget(group);
    if (token !== undefined) await network?.confirmed(token);
  }

  /** A notice on the channel, from any process (this one included): `<group>`, or `<group> <token>`. */
  received(payload: string) {
    const [group, token] = payload.split(" ");
    this.forget(group!);
    if (token) network?.confirm(token);
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
// biome-ignore lint/suspicious/noExplicitAny: caches of every value type; main.ts uses only their channels
const sharedCaches: SharedCache<any>[] = [];

/** This process's part in confirming changes (PostgreSQL only: an embedded database has one process). */
class CacheNetwork {
  private pending = new Map<string, { confirmedBy: Set<number>; wake?: () => void }>();
  /** This server's instance key, once it counts as running; null in a process that caches nothing it serves (the CLI). */
  key: number | null = null;

  constructor(private readonly database: DatabaseHandle) {}

  /** A change is about to be announced with `token`: collect its confirmations from now on. */
  expect(token: string) {
    if (this.pending.size >= MAX_PENDING_CHANGES) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(token, { confirmedBy: new Set() });
  }

  /** This server has forgotten what a notice named: say so. */
  confirm(token: string) {
    if (this.key === null) return;
    this.database.db
      .execute(sql`select pg_notify(${CONFIRM_CHANNEL}, ${`${token} ${this.key}`})`)
      .catch((error: Error) => log.warn("could not confirm a cache notice", { error: error.message }));
  }

  received(payload: string) {
    const [token, key] = payload.split(" ");
    const change = this.pending.get(token!);
    if (!change) return;
    change.confirmedBy.add(Number(key));
    change.wake?.();
  }

  /** Wait (at most CONFIRM_TIMEOUT_MS) until every running instance has confirmed the change `token`. */
  async confirmed(token: string): Promise<void> {
    const change = this.pending.get(token);
    if (!change) return;
    try {
      const instances = await this.instances();
      const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
      for (;;) {
        const missing = instances.filter((key) => !change.confirmedBy.has(key));
        if (!missing.length) return;
        const left = deadline - Date.now();
        if (left <= 0) {
          log.warn("instances did not confirm a cache change in time; their copies expire on their own", { missing, timeoutMs: CONFIRM_TIMEOUT_MS });
          return;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          change.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      this.pending.delete(token);
    }
  }

  /** The instance keys of the servers running now (their advisory locks end with their connections). */
  private async instances(): Promise<number[]> {
    const result = await this.database.db.execute(
      sql`select objid::int8 as key from pg_locks
          where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
            and classid = ${INSTANCE_LOCK_CLASS} and objsubid = 2 and granted`,
    );
    const rows = resultRows<{ key: string | number }>(result);
    return rows.map((row) => Number(row.key));
  }
}

let network: CacheNetwork | null = null;

/**
 * Listen on every cache's channel: forget what any process changes, clear everything when the
 * listener reconnects. On PostgreSQL also take part in confirming changes: a `server` (src/main.ts)
 * registers as a running instance and confirms every notice; a process that only makes changes (the
 * CLI) waits for the servers' confirmations before it reports a change done.
 */
export async function joinCacheNetwork(database: DatabaseHandle, role: "server" | "client"): Promise<void> {
  const joined = database.engine === "postgres" ? new CacheNetwork(database) : null;
  if (joined) await database.listen(CONFIRM_CHANNEL, (payload) => joined.received(payload));
  for (const cache of sharedCaches)
    await database.listen(
      cache.channel,
      (payload) => cache.received(payload),
      () => cache.clear(),
    );
  if (!joined) return;
  network = joined;
  // Only now, listening, does this server count as running (and changes wait for its confirmations).
  if (role === "server") joined.key = await database.holdInstanceLock(INSTANCE_LOCK_CLASS);
}
