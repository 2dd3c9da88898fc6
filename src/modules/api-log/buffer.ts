/**
 * The API log's buffer: the command endpoint hands each answered request to `record()`, which only
 * appends a small row in memory; a flusher writes the rows in batches (one statement each) every
 * `flushIntervalMs`, or at once when `batchSize` are waiting. No request ever waits for the log.
 *
 * The buffer is bounded (entries, characters, and entries per partner, so one partner's flood cannot
 * crowd out the others): past a bound a row is dropped and counted, never queued. A batch the
 * database refuses is dropped and counted too (the log is a convenience, not a record: nothing
 * retries it). Graceful shutdown flushes what is left (`close()`, from src/main.ts).
 */
import { log } from "../../core/log";
import { getOrMake } from "../../core/maps";
import type { Database } from "../../db/client";
import { type ApiLogRow, apiLogRow, type CommandExchange } from "./entry";
import { insertApiRequests } from "./service";

export interface ApiLogBufferOptions {
  flushIntervalMs: number;
  batchSize: number;
  /** Rows waiting at most. */
  maxEntries: number;
  /** Characters of request and response text waiting at most. */
  maxChars: number;
  /** Rows of one partner waiting at most (the rate limit keeps a well-behaved partner far below). */
  maxPerPartner: number;
}

const API_LOG_BUFFER_DEFAULTS: ApiLogBufferOptions = {
  flushIntervalMs: 250,
  batchSize: 500,
  maxEntries: 10_000,
  maxChars: 16 * 1024 * 1024,
  maxPerPartner: 1000,
};

/** What the buffer has done since it started. */
export interface ApiLogStats {
  recorded: number;
  written: number;
  /** Not kept: a bound was reached, or the buffer was closed. */
  dropped: number;
  /** Kept, but the database refused their batch. */
  failed: number;
  waiting: number;
}

const ROW_OVERHEAD_CHARS = 300;
const sizeOf = (row: ApiLogRow) => row.request.length + row.response.length + ROW_OVERHEAD_CHARS;
const DROP_WARNING_EVERY_MS = 10_000;

export class ApiLogBuffer {
  private rows: ApiLogRow[] = [];
  private chars = 0;
  private readonly perPartner = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private draining: Promise<void> | null = null;
  private closed = false;
  private readonly counts = { recorded: 0, written: 0, dropped: 0, failed: 0 };
  private droppedSinceWarning = 0;
  private lastWarning = 0;
  readonly options: ApiLogBufferOptions;

  constructor(
    private readonly db: Database,
    options: Partial<ApiLogBufferOptions> = {},
  ) {
    this.options = { ...API_LOG_BUFFER_DEFAULTS, ...options };
  }

  stats(): ApiLogStats {
    return { ...this.counts, waiting: this.rows.length };
  }

  /** Take one answered request (never throws, never waits). */
  record(exchange: CommandExchange): void {
    try {
      const partnerId = exchange.principal.partnerId;
      // Bounds that need no row are checked before building one: under a flood the work is skipped too.
      if (this.closed || this.rows.length >= this.options.maxEntries || (this.perPartner.get(partnerId) ?? 0) >= this.options.maxPerPartner) {
        this.drop();
        return;
      }
      this.add(apiLogRow(exchange));
    } catch (error) {
      log.warn("API log entry not recorded", { requestId: exchange.requestId, error });
    }
  }

  /** Queue a built row (record() builds it); false when a bound dropped it. */
  add(row: ApiLogRow): boolean {
    const size = sizeOf(row);
    const mine = this.perPartner.get(row.partner_id) ?? 0;
    if (this.closed || this.rows.length >= this.options.maxEntries || this.chars + size > this.options.maxChars || mine >= this.options.maxPerPartner) {
      this.drop();
      return false;
    }
    this.rows.push(row);
    this.chars += size;
    this.perPartner.set(row.partner_id, mine + 1);
    this.counts.recorded++;
    this.kick();
    return true;
  }

  /** Write everything waiting now; resolves when the buffer is empty (or what was left failed). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      this.kick();
    });
    return this.draining;
  }

  /** Graceful shutdown: take nothing more, write what waits. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.rows.length || this.draining) await this.flush();
  }

  private drop() {
    this.counts.dropped++;
    this.droppedSinceWarning++;
    const now = Date.now();
    if (now - this.lastWarning >= DROP_WARNING_EVERY_MS) {
      log.warn("API log entries dropped: the buffer is full", { dropped: this.droppedSinceWarning, waiting: this.rows.length });
      this.lastWarning = now;
      this.droppedSinceWarning = 0;
    }
  }

  /** A full batch is written at once; anything less waits for the timer. */
  private kick() {
    if (this.draining || !this.rows.length) return;
    if (this.rows.length >= this.options.batchSize) {
      void this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.flushIntervalMs);
    // The flusher never keeps a process alive; shutdown flushes explicitly.
    this.timer.unref?.();
  }

  private async drain() {
    while (this.rows.length) {
      const batch = this.rows.splice(0, this.options.batchSize);
      for (const row of batch) {
        this.chars -= sizeOf(row);
        const left = (this.perPartner.get(row.partner_id) ?? 1) - 1;
        if (left > 0) this.perPartner.set(row.partner_id, left);
        else this.perPartner.delete(row.partner_id);
      }
      try {
        await insertApiRequests(this.db, batch);
        this.counts.written += batch.length;
      } catch (error) {
        this.counts.failed += batch.length;
        log.warn("API log batch not written", { rows: batch.length, error });
      }
    }
  }
}

const buffers = new WeakMap<Database, ApiLogBuffer>();

/** The buffer of a database handle: one per process and database, shared by every app built on it. */
export function apiLogFor(db: Database): ApiLogBuffer {
  return getOrMake(buffers, db, () => new ApiLogBuffer(db));
}

/** Give a database handle a buffer of its own settings (tests), for the apps built on it from now on. */
export function replaceApiLogBuffer(db: Database, options: Partial<ApiLogBufferOptions> = {}): ApiLogBuffer {
  const buffer = new ApiLogBuffer(db, options);
  buffers.set(db, buffer);
  return buffer;
}
