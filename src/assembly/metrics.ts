/**
 * GET /metrics — Prometheus text format (exposition format 0.0.4).
 *
 * Counters and the latency histogram live in this process (one set per instance: Prometheus adds
 * instances up). They are fed by the records the service already writes — the command endpoint's
 * one "command" record per request and the webhook dispatcher's "webhook attempt failed" — so the
 * metrics and the logs always tell the same story — and by an after-response hook for every HTTP
 * route. Queue depths are counted in the database at scrape time with indexed counts (shared by
 * every instance: aggregate them with max(), not sum()).
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { Elysia } from "elysia";
import { observeLog } from "../core/log";
import { getOrMake } from "../core/maps";
import { resultRows } from "../db/results";
import type { AppDeps } from "../http/context";

const PREFIX = "partner_service_";

/** Seconds: commands take from well under 5 ms (status, quote) to 30 s (a first registry check). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

type Labels = Record<string, string>;

const escapeLabel = (value: string) => String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labelText = (labels: Labels) => {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return pairs.length ? `{${pairs.join(",")}}` : "";
};
const keyOf = (labels: Labels) => JSON.stringify(labels);
const number = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN");

class Counter {
  private readonly series = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels, by = 1) {
    const key = keyOf(labels);
    const entry = this.series.get(key);
    if (entry) entry.value += by;
    else this.series.set(key, { labels, value: by });
  }

  value(labels: Labels): number {
    return this.series.get(keyOf(labels))?.value ?? 0;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.series.values()) lines.push(`${this.name}${labelText(labels)} ${number(value)}`);
    return lines;
  }
}

class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  observe(labels: Labels, value: number) {
    const key = keyOf(labels);
    const entry = getOrMake(this.series, key, () => ({ labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) entry.counts[i]!++;
    entry.sum += value;
    entry.count++;
  }

  count(labels: Labels): number {
    return this.series.get(keyOf(labels))?.count ?? 0;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      for (const [i, le] of this.buckets.entries()) lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(le) })} ${counts[i]}`);
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: "+Inf" })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${number(sum)}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines;
  }
}

function gauge(name: string, help: string, samples: [Labels, number][]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, ...samples.map(([labels, value]) => `${name}${labelText(labels)} ${number(value)}`)];
}

/** This process's counters (every app built in it reports them: the process is the instance). */
const metrics = {
  commands: new Counter(
    `${PREFIX}commands_total`,
    "Commands answered on POST /, by command (its grammar; (none) when the request failed before one was found), exctnFdbck id (outcome) and id_v4 (status).",
  ),
  commandSeconds: new Histogram(`${PREFIX}command_duration_seconds`, "Time to answer a command on POST /, by command.", LATENCY_BUCKETS),
  httpRequests: new Counter(`${PREFIX}http_requests_total`, "HTTP requests by route (the route pattern; (unmatched) for no route), method and HTTP status."),
  webhookFailures: new Counter(
    `${PREFIX}webhook_delivery_failures_total`,
    "Webhook delivery attempts that did not succeed, by reason: status (the receiver answered non-2xx), error (timeout or network), refused (the SSRF guard).",
  ),
};

/** Label values are the registry's grammars, so their number is bounded whatever partners send. */
const commandLabel = (command: unknown) => (typeof command === "string" ? command : "(none)");

observeLog((_level, msg, fields) => {
  if (msg === "command") {
    const command = commandLabel(fields.command);
    metrics.commands.inc({ command, outcome: String(fields.outcome), status: String(fields.status) });
    if (typeof fields.ms === "number") metrics.commandSeconds.observe({ command }, fields.ms / 1000);
  } else if (msg === "webhook attempt failed") {
    metrics.webhookFailures.inc({ reason: typeof fields.reason === "string" ? fields.reason : "error" });
  }
});

/** Record one answered HTTP request (the app's after-response hook calls this). */
export function countHttpRequest(route: string | undefined, method: string | undefined, status: unknown) {
  // Requests no route matched never reach the derive that captures the method.
  const code = typeof status === "number" ? status : Number(status) || 200;
  metrics.httpRequests.inc({ route: route || "(unmatched)", method: method ?? "unknown", status: String(code) });
}

interface QueueDepths {
  underwriting_due: number;
  manual_review: number;
  outbox_undispatched: number;
  webhook_deliveries_pending: number;
  webhook_deliveries_due: number;
}

/**
 * Work waiting, counted where it waits; every count is served by a partial index
 * (policies_underwrite_idx, policies_pending_idx, outbox_events_undispatched_idx,
 * webhook_deliveries_due_idx), so a scrape costs a few index scans of small queues.
 */
async function queueDepths(deps: AppDeps): Promise<QueueDepths> {
  const result = await deps.database.db.execute(sql`
    select
      (select count(*) from policies where status = 'p' and underwrite_at is not null and underwrite_at <= now())::int as underwriting_due,
      (select count(*) from policies where status = 'p' and route = 'manual')::int as manual_review,
      (select count(*) from outbox_events where dispatched_at is null)::int as outbox_undispatched,
      (select count(*) from webhook_deliveries where status = 'pending')::int as webhook_deliveries_pending,
      (select count(*) from webhook_deliveries where status = 'pending' and next_attempt_at <= now())::int as webhook_deliveries_due`);
  const rows = resultRows(result);
  const row = rows[0] ?? {};
  return {
    underwriting_due: Number(row.underwriting_due ?? 0),
    manual_review: Number(row.manual_review ?? 0),
    outbox_undispatched: Number(row.outbox_undispatched ?? 0),
    webhook_deliveries_pending: Number(row.webhook_deliveries_pending ?? 0),
    webhook_deliveries_due: Number(row.webhook_deliveries_due ?? 0),
  };
}

const QUEUE_HELP: Record<keyof QueueDepths, string> = {
  underwriting_due: "live policies pending whose insurer decision is due",
  manual_review: "live policies waiting for an administrator",
  outbox_undispatched: "outbox events not yet turned into webhook deliveries",
  webhook_deliveries_pending: "webhook deliveries waiting for a first try or a retry",
  webhook_deliveries_due: "pending webhook deliveries whose time has come",
};

const processStart = Date.now() / 1000 - process.uptime();

/** The whole exposition: process counters, this app's gauges, the queues. */
async function renderMetrics(deps: AppDeps, depths: () => Promise<QueueDepths | null>): Promise<string> {
  const queues = await depths();
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const lines = [
    ...metrics.commands.render(),
    ...metrics.commandSeconds.render(),
    ...gauge(`${PREFIX}commands_in_flight`, "Commands being answered now.", [[{}, deps.capacity.current]]),
    ...gauge(`${PREFIX}commands_in_flight_limit`, "MAX_IN_FLIGHT: past it commands are answered 35/503.", [[{}, deps.capacity.limit]]),
    ...gauge(`${PREFIX}unidentified_body_bytes`, "Bytes of request bodies whose sender is not known yet, held now.", [[{}, deps.capacity.unidentifiedBytes]]),
    ...gauge(`${PREFIX}unidentified_body_bytes_limit`, "UNIDENTIFIED_BODY_BYTES: past it such bodies are answered 35/503.", [
      [{}, deps.capacity.unidentifiedLimit],
    ]),
    ...metrics.httpRequests.render(),
    ...metrics.webhookFailures.render(),
    ...gauge(`${PREFIX}database_up`, "1 when the queue depths could be read from the database.", [[{}, queues ? 1 : 0]]),
    ...(queues
      ? gauge(
          `${PREFIX}queue_depth`,
          `Work waiting in the database, by queue: ${Object.entries(QUEUE_HELP)
            .map(([queue, help]) => `${queue} (${help})`)
            .join("; ")}. Shared by every instance: aggregate with max().`,
          Object.entries(queues).map(([queue, value]) => [{ queue }, value]),
        )
      : []),
    ...gauge("process_resident_memory_bytes", "Resident memory of this process.", [[{}, memory.rss]]),
    ...gauge(`${PREFIX}heap_bytes`, "JavaScript heap of this process, used and total.", [
      [{ kind: "used" }, memory.heapUsed],
      [{ kind: "total" }, memory.heapTotal],
    ]),
    ...gauge(`${PREFIX}external_memory_bytes`, "Memory held outside the JavaScript heap (buffers).", [[{}, memory.external]]),
    `# HELP process_cpu_seconds_total CPU time of this process, user and system.`,
    `# TYPE process_cpu_seconds_total counter`,
    `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`,
    ...gauge("process_start_time_seconds", "When this process started (Unix time).", [[{}, Math.floor(processStart)]]),
  ];
  return `${lines.join("\n")}\n`;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The token check: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
function authorised(header: string | null, token: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  return timingSafeEqual(digest(presented), digest(token));
}

/** GET /metrics: open without METRICS_TOKEN, a bearer token with it. Queue counts are reused for a second. */
export const metricsRoutes = (deps: AppDeps) => {
  let cached: { at: number; value: Promise<QueueDepths | null> } | null = null;
  const depths = () => {
    const now = Date.now();
    if (!cached || now - cached.at >= 1000) cached = { at: now, value: queueDepths(deps).catch(() => null) };
    return cached.value;
  };
  return new Elysia({ name: "metrics" }).get("/metrics", async ({ request, set }) => {
    set.headers["cache-control"] = "no-store";
    const token = deps.config.METRICS_TOKEN;
    if (token && !authorised(request.headers.get("authorization"), token)) {
      set.status = 401;
      set.headers["www-authenticate"] = 'Bearer realm="metrics"';
      return { error: "a bearer token is required: Authorization: Bearer <METRICS_TOKEN>" };
    }
    set.headers["content-type"] = "text/plain; version=0.0.4; charset=utf-8";
    return renderMetrics(deps, depths);
  });
};
