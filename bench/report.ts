/** The benchmark's results as a markdown section: printed, and written into docs/performance.md. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import type { HostileReport } from "./hostile";
import type { LoadResult } from "./load";

const START_MARKER = "<!-- bench:start -->";
const END_MARKER = "<!-- bench:end -->";
/** The aims: each command's throughput is at least this share of its nearest bare INSERT's (issue 18). */
const AIMS: Record<string, number> = { quote: 0.8, status: 0.8, list: 0.8, insure: 0.6, register: 0.5, "insure-live": 0.45 };
/** The second criterion: each command's p99 is at most this many times its nearest bare INSERT's p99 (issue 18). */
export const P99_AIM = 2.5;

export interface Machine {
  cores: string;
  memory: string;
  cpu: string;
  os: string;
  node: string;
  bun: string;
  postgres: string;
}

function commandOutput(command: string[]): string | null {
  try {
    const run = Bun.spawnSync(command, { stdout: "pipe", stderr: "ignore" });
    return run.exitCode === 0 ? run.stdout.toString().trim() : null;
  } catch {
    return null;
  }
}

export function describeMachine(postgresVersion: string): Machine {
  return {
    cores: commandOutput(["nproc"]) ?? String(os.availableParallelism()),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    cpu: os.cpus()[0]?.model ?? "unknown",
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: commandOutput(["node", "--version"]) ?? "not installed",
    bun: Bun.version,
    postgres: postgresVersion,
  };
}

/** What a bare handler's route does: bench/bare.ts's `POST /` (INSERT) or `POST /read` (SELECT by primary key). */
export type BareKind = "insert" | "select";

/** One measurement of a bare handler; they are taken before the first scenario and after each one. */
export interface BareRun {
  kind: "bare";
  base: BareKind;
  /** 1, 2, … in the order the runs of this base were measured. */
  number: number;
  result: LoadResult;
}

export interface ScenarioReport {
  kind: "scenario";
  name: string;
  description: string;
  /** Partners the scenario rotated through. */
  partners: number;
  /** A read command: also compared, for reference, with the bare SELECT. */
  reads: boolean;
  result: LoadResult;
  /** Seconds the service's background work (underwriting, events) went on after the scenario, before the next bare run. */
  settledSeconds: number;
}

export interface RunReport {
  startedAt: Date;
  machine: Machine;
  settings: {
    connections: number;
    warmupSeconds: number;
    bareWarmupSeconds: number;
    durationSeconds: number;
    logLevel: string;
    rateLimit: string;
  };
  /** Bare runs and scenarios in the order they were measured. */
  runs: (BareRun | ScenarioReport)[];
  /** Partners made for the scenarios, and the seconds that took. */
  partnersMade: { count: number; seconds: number };
  /** Rows the database holds after the run, as a cross-check of the counted successes. */
  stored: { quotes: number; consumers: number; policies: number; bare: number };
}

export const scenariosOf = (report: RunReport) => report.runs.filter((r): r is ScenarioReport => r.kind === "scenario");
const bareRunsOf = (report: RunReport, base: BareKind) => report.runs.filter((r): r is BareRun => r.kind === "bare" && r.base === base);

/** The bare figure a scenario is compared with: the mean of the runs of `base` just before and just after it. */
interface NearestBare {
  base: BareKind;
  numbers: number[];
  requestsPerSecond: number;
  p99Ms: number;
}

function nearestBare(report: RunReport, scenario: string, base: BareKind): NearestBare | null {
  const at = report.runs.findIndex((r) => r.kind === "scenario" && r.name === scenario);
  if (at < 0) return null;
  const isBase = (r: BareRun | ScenarioReport): r is BareRun => r.kind === "bare" && r.base === base;
  const before = report.runs.slice(0, at).findLast(isBase);
  const after = report.runs.slice(at + 1).find(isBase);
  const used = [before, after].filter((r): r is BareRun => r !== undefined);
  if (used.length === 0) return null;
  const mean = (f: (r: LoadResult) => number) => used.reduce((sum, r) => sum + f(r.result), 0) / used.length;
  return { base, numbers: used.map((r) => r.number), requestsPerSecond: mean((r) => r.requestsPerSecond), p99Ms: mean((r) => r.p99Ms) };
}

export interface Verdict {
  name: string;
  insert: NearestBare | null;
  select: NearestBare | null;
  /** Throughput / the nearest bare INSERT's: what the aim is judged on. */
  ratio: number | null;
  /** Throughput / the nearest bare SELECT's, for the read commands (for reference). */
  selectRatio: number | null;
  /** p99 / the nearest bare INSERT's p99. */
  p99Ratio: number | null;
  aim: number | undefined;
  /** Both criteria hold; null when the scenario has no aim. */
  met: boolean | null;
}

export function verdicts(report: RunReport): Verdict[] {
  return scenariosOf(report).map(({ name, reads, result }) => {
    const insert = nearestBare(report, name, "insert");
    const select = reads ? nearestBare(report, name, "select") : null;
    const ratio = insert?.requestsPerSecond ? result.requestsPerSecond / insert.requestsPerSecond : null;
    const selectRatio = select?.requestsPerSecond ? result.requestsPerSecond / select.requestsPerSecond : null;
    const p99Ratio = insert?.p99Ms ? result.p99Ms / insert.p99Ms : null;
    const aim = AIMS[name];
    const met = aim === undefined ? null : ratio !== null && ratio >= aim && p99Ratio !== null && p99Ratio <= P99_AIM;
    return { name, insert, select, ratio, selectRatio, p99Ratio, aim, met };
  });
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function outcomesText(result: LoadResult): string {
  const failures = Object.entries(result.outcomes).filter(([label]) => label !== "ok");
  if (failures.length === 0) return "0";
  return `${fmt(result.failed)} (${failures.map(([label, n]) => `${label}: ${n}`).join(", ")})`;
}

const BARE_DESCRIPTIONS: Record<BareKind, string> = {
  insert: "bare Elysia + postgres.js: one INSERT",
  select: "bare Elysia + postgres.js: one SELECT by primary key",
};
const bareName = (base: BareKind, number: number) => `bare ${base.toUpperCase()} #${number}`;
const nearestText = (bare: NearestBare) =>
  `${bare.base.toUpperCase()} ${bare.numbers.map((n) => `#${n}`).join("–")}: ${fmt(bare.requestsPerSecond)} req/s, p99 ${fmt(bare.p99Ms, bare.numbers.length > 1 ? 1 : 0)} ms`;

/** The generated part of docs/performance.md (without the markers). */
export function renderSection(report: RunReport): string {
  const { machine: m, settings: s } = report;
  const bareLine = (base: BareKind) => {
    const runs = bareRunsOf(report, base);
    if (runs.length === 0) return [];
    const rates = runs.map((r) => r.result.requestsPerSecond);
    const spread = Math.min(...rates) > 0 ? ` (slowest to fastest: +${fmt((100 * Math.max(...rates)) / Math.min(...rates) - 100)} %)` : "";
    return [
      `Bare ${base.toUpperCase()} runs: ${runs.map((r) => `#${r.number} ${fmt(r.result.requestsPerSecond)} req/s, p99 ${fmt(r.result.p99Ms)} ms`).join("; ")}${spread}.`,
      "",
    ];
  };
  const lines = [
    `_Generated by \`npm run bench\` on ${report.startedAt.toISOString().replace(/\.\d+Z$/, "Z")}; everything between the bench markers is rewritten by each run._`,
    "",
    "| machine | |",
    "| --- | --- |",
    `| cores (nproc) | ${m.cores} — the servers, PostgreSQL and the load generator share them |`,
    `| memory | ${m.memory} |`,
    `| CPU | ${m.cpu} |`,
    `| OS | ${m.os} |`,
    `| node --version | ${m.node} |`,
    `| bun | ${m.bun} |`,
    `| PostgreSQL | ${m.postgres} |`,
    "",
    `Settings: ${s.connections} connections, ${s.warmupSeconds} s warm-up then ${s.durationSeconds} s measured per scenario; ` +
      `the bare handler before the first scenario and again after each one (INSERT always, SELECT next to the read scenarios), ` +
      `${s.bareWarmupSeconds} s warm-up (${s.warmupSeconds} s the first time) then ${s.durationSeconds} s measured; ` +
      `service with LOG_LEVEL=${s.logLevel} and its default rate limit (${s.rateLimit} per partner), requests spread round-robin over fresh partners ` +
      `(${fmt(report.partnersMade.count)} made in ${fmt(report.partnersMade.seconds, 1)} s).`,
    "",
    "In the order measured:",
    "",
    "| run | what one request does | partners | requests/s | p50 ms | p99 ms | answered | not ok | no answer | background work after it, s |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...report.runs.map((run) => {
      const r = run.result;
      const [name, description, partners, settled] =
        run.kind === "bare"
          ? [bareName(run.base, run.number), BARE_DESCRIPTIONS[run.base], "–", "–"]
          : [run.name, run.description, String(run.partners), run.settledSeconds.toFixed(1)];
      return `| ${name} | ${description} | ${partners} | ${fmt(r.requestsPerSecond)} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${fmt(r.answered)} | ${outcomesText(r)} | ${r.errors} | ${settled} |`;
    }),
    "",
    "The bare runs after a scenario start once the background work the scenario left is done (live policies the insurer decides 3 s later, events to dispatch, PostgreSQL's autovacuum of its rows), at most 180 s.",
    "",
    ...bareLine("insert"),
    ...bareLine("select"),
    `Each scenario is compared with its nearest bare runs (the mean of the one just before and the one just after it). ` +
      `The aims: "ratio to bare" (throughput / bare INSERT throughput) at least the aim, and p99 / bare INSERT p99 at most ${P99_AIM}; met when both hold. ` +
      "The read commands are also compared with the bare SELECT, for reference.",
    "",
    "| scenario | nearest bare INSERT | ratio to bare | aim | p99 / bare p99 | aim | | ratio to bare SELECT (reference) |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |",
    ...verdicts(report).map((v) => {
      const verdict = v.met === null ? "for reference" : v.met ? "**met**" : "**not met**";
      const select = v.select && v.selectRatio !== null ? `${v.selectRatio.toFixed(2)} (${nearestText(v.select)})` : "–";
      return (
        `| ${v.name} | ${v.insert ? nearestText(v.insert) : "n/a"} | ${v.ratio?.toFixed(2) ?? "n/a"} | ${v.aim === undefined ? "–" : `≥ ${v.aim}`} ` +
        `| ${v.p99Ratio?.toFixed(2) ?? "n/a"} | ≤ ${P99_AIM} | ${verdict} | ${select} |`
      );
    }),
    "",
    `"not ok" counts answers other than exctnFdbck.id 75 (bare: other than \`{ ok: true }\`), checked on every answer. ` +
      `Rows stored after the run (warm-ups and probes included): ${fmt(report.stored.quotes)} quotes, ${fmt(report.stored.consumers)} consumers, ${fmt(report.stored.policies)} policies; ` +
      `the bare INSERT runs left ${fmt(report.stored.bare)} rows (each run, warm-up included, starts on an emptied table and must leave a row per answer).`,
  ];
  return lines.join("\n");
}

const SKELETON = `# Performance\n\n${START_MARKER}\n${END_MARKER}\n`;

/** Replace the marked section of `file` (created, or markers appended, when missing). */
export function writeSection(file: string, section: string, markers: [start: string, end: string] = [START_MARKER, END_MARKER]): void {
  const [startMarker, endMarker] = markers;
  let text = existsSync(file) ? readFileSync(file, "utf8") : SKELETON;
  if (!text.includes(startMarker) || !text.includes(endMarker)) text = `${text.trimEnd()}\n\n${startMarker}\n${endMarker}\n`;
  const start = text.indexOf(startMarker) + startMarker.length;
  const end = text.indexOf(endMarker, start);
  writeFileSync(file, `${text.slice(0, start)}\n${section}\n${text.slice(end)}`);
}

export const SCALE_MARKERS: [string, string] = ["<!-- bench-scale:start -->", "<!-- bench-scale:end -->"];
/** The aim for portal list pages with 100k policies (issue 7). */
const LIST_P95_AIM_MS = 50;

/** The lists and memory results as markdown. */
export function renderScaleSection(
  startedAt: Date,
  rows: { size: number; what: string; p50: number; p95: number; p99: number }[],
  memory: { second: number; rssMiB: number }[],
  settings: { requests: number; soakSeconds: number; soakConnections: number },
): string {
  const sizes = [...new Set(rows.map((r) => r.size))];
  const whats = [...new Set(rows.map((r) => r.what))];
  const at = (size: number, what: string) => rows.find((r) => r.size === size && r.what === what)!;
  const hundredK = rows.filter((r) => r.size === 100_000 && r.what.startsWith("/"));
  const worst = hundredK.reduce((m, r) => Math.max(m, r.p95), 0);
  const first = memory[1] ?? memory[0]!;
  const last = memory.at(-1)!;
  return [
    `_Generated by \`npm run bench\` on ${startedAt.toISOString().replace(/\.\d+Z$/, "Z")}._`,
    "",
    `List latency, one request at a time (${settings.requests} per cell after 20 to warm up), p50 / p95 / p99 in ms, by number of the partner's policies in the table:`,
    "",
    `| request | ${sizes.map((s) => fmt(s)).join(" | ")} |`,
    `| --- | ${sizes.map(() => "---:").join(" | ")} |`,
    ...whats.map((what) => `| ${what} | ${sizes.map((s) => `${at(s, what).p50} / ${at(s, what).p95} / ${at(s, what).p99}`).join(" | ")} |`),
    "",
    `Aim: portal list pages p95 < ${LIST_P95_AIM_MS} ms with 100k policies — worst p95 at 100k: ${worst} ms, **${worst < LIST_P95_AIM_MS ? "met" : "not met"}**.`,
    "",
    `Memory (resident) of a server under ${settings.soakSeconds} s of quotes from ${settings.soakConnections} connections:`,
    "",
    "| second | RSS MiB |",
    "| ---: | ---: |",
    ...memory.map((m) => `| ${m.second} | ${m.rssMiB} |`),
    "",
    `After warm-up ${first.rssMiB} MiB, at the end ${last.rssMiB} MiB (${last.rssMiB - first.rssMiB >= 0 ? "+" : ""}${last.rssMiB - first.rssMiB} MiB).`,
  ].join("\n");
}

export const HOSTILE_MARKERS: [string, string] = ["<!-- bench-hostile:start -->", "<!-- bench-hostile:end -->"];
/** The aims under hostile bodies: paced, the partner's quote p99 at most this many times alone (issue 13). */
const HOSTILE_P99_AIM = 2;
/** As fast as answered (issue 34): the median at most this many times alone's, the throughput at least this share of it, the server's memory below this. */
const HOSTILE_P50_AIM = 5;
const HOSTILE_THROUGHPUT_AIM = 0.5;
const HOSTILE_RSS_AIM_MIB = 400;

/** The hostile-load results as markdown. */
export function renderHostileSection(startedAt: Date, report: HostileReport): string {
  const { settings: s, phases } = report;
  const hostileText = (sender: HostileReport["phases"][number]["sender"]) =>
    sender
      ? Object.entries(sender.outcomes)
          .map(([label, n]) => `${label}: ${fmt(n)}`)
          .join(", ") || "none"
      : "–";
  const paced = phases.filter((p) => p.paced);
  const unpaced = phases.filter((p) => !p.paced);
  const alone = paced[0]!.quotes.p99Ms;
  const ratioText = (p99: number) => (alone > 0 ? `${(p99 / alone).toFixed(1)}×` : "n/a");
  const worst = Math.max(...paced.slice(1).map((p) => p.quotes.p99Ms));
  const clean = unpaced[0]!.quotes;
  const verdicts = unpaced.slice(1).map((p) => {
    // autocannon's latencies are whole milliseconds: a median under one reads 0, and is taken as 1.
    const median = Math.max(1, p.quotes.p50Ms) / Math.max(1, clean.p50Ms);
    const throughput = clean.requestsPerSecond > 0 ? p.quotes.requestsPerSecond / clean.requestsPerSecond : 0;
    const met = median <= HOSTILE_P50_AIM && throughput >= HOSTILE_THROUGHPUT_AIM && p.peakRssMiB < HOSTILE_RSS_AIM_MIB && p.quotes.failed === 0;
    return { phase: p, median, throughput, met };
  });
  const rss = Math.max(...phases.map((p) => p.peakRssMiB));
  return [
    `_Generated by \`npm run bench\` (scenario \`hostile\`) on ${startedAt.toISOString().replace(/\.\d+Z$/, "Z")}._`,
    "",
    `One partner's quotes at ${s.rate} a second over ${s.connections} connections (${s.warmupSeconds} s warm-up, then ${s.seconds} s measured per phase), ` +
      "alone and while one connection sends 8 MB hostile bodies back to back:",
    "",
    "| phase | hostile body | quote p50 ms | quote p99 ms | p99 / alone | quotes answered | not ok | hostile requests answered | each took (mean) ms | peak RSS MiB |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ...paced.map(
      ({ name, description, quotes: q, sender, peakRssMiB }) =>
        `| ${name} | ${description} | ${fmt(q.p50Ms)} | ${fmt(q.p99Ms)} | ${sender ? ratioText(q.p99Ms) : "–"} | ${fmt(q.answered)} | ${outcomesText(q)} | ${hostileText(sender)} | ${sender ? fmt(sender.meanMs) : "–"} | ${fmt(peakRssMiB)} |`,
    ),
    "",
    `Aim: p99 under hostile bodies within ${HOSTILE_P99_AIM}× of alone — worst ${ratioText(worst)}, **${alone > 0 && worst <= HOSTILE_P99_AIM * alone ? "met" : "not met"}**.`,
    "",
    `The same partner's quotes as fast as they are answered over ${s.throughputConnections} connections, alone and while many senders send what can only be refused:`,
    "",
    "| phase | hostile clients | quotes/s | share of alone | quote p50 ms | p50 / alone | quote p99 ms | not ok | hostile requests answered | peak RSS MiB |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ...unpaced.map((p, i) => {
      const v = i === 0 ? undefined : verdicts[i - 1]!;
      const q = p.quotes;
      return `| ${p.name} | ${p.description} | ${fmt(q.requestsPerSecond)} | ${v ? `${fmt(v.throughput * 100)} %` : "–"} | ${q.p50Ms < 1 ? "< 1" : fmt(q.p50Ms)} | ${v ? `${v.median.toFixed(1)}×` : "–"} | ${fmt(q.p99Ms)} | ${outcomesText(q)} | ${hostileText(p.sender)} | ${fmt(p.peakRssMiB)} |`;
    }),
    "",
    `Aims (issue 34; latencies in whole milliseconds, a median under one counted as one): under string bodies and slow bodies the median within ${HOSTILE_P50_AIM}× of alone, the throughput above ${HOSTILE_THROUGHPUT_AIM * 100} % of alone, ` +
      `no quote refused, the server below ${HOSTILE_RSS_AIM_MIB} MiB — ${verdicts.map((v) => `${v.phase.name}: **${v.met ? "met" : "not met"}**`).join(", ")} (peak RSS of the whole scenario ${fmt(rss)} MiB).`,
  ].join("\n");
}
