/**
 * The `hostile` scenario (issues 13 and 34): one partner's quotes with nobody else on the service, then
 * while hostile clients send bodies that can only be refused. Paced phases (a fixed rate far below
 * capacity, latency corrected for coordinated omission) show what one connection of 8 MB bodies —
 * four million zeros as the seed, once without `userInfo` and once with the partner's own id and a
 * wrong key — costs the partner's p99. Unpaced phases (the partner's quotes as fast as answered) show
 * what is left of its throughput and median while twelve senders on twelve addresses send 8 MB bodies
 * of one long string, and while 260 connections from 250 addresses trickle a body a byte a second;
 * the server's resident memory is sampled throughout.
 */
import { join } from "node:path";
import { jsonLimits } from "../src/core/json-shape";
import type { SenderTally } from "./hostile-sender";
import { classifyCommandAnswer, type LoadResult, runLoad } from "./load";
import { measureMemory } from "./scale";
import type { Server } from "./servers";

/** Zeros in the hostile seed: with the envelope, just under the 8 MiB body limit. */
const ZEROS = 4_000_000;
/**
 * Senders of string bodies, each on an address of its own, each just under the per-address refusal
 * limit (issue 34: twelve such senders cut a partner's throughput 70× while every body was read and
 * parsed); REFUSAL_LIMIT_MAX a minute is the service's default of 300.
 */
const STRING_SENDERS = 12;
const STRING_SENDER_RATE = (300 / 60) * 0.95;
/** Trickling connections and the addresses they come from (issue 34). */
const SLOW_CONNECTIONS = 260;
const SLOW_ADDRESSES = 250;

export interface HostileSettings {
  /** The partner's quotes a second, over `connections`, in the paced phases. */
  rate: number;
  connections: number;
  /** The partner's connections in the unpaced phases. */
  throughputConnections: number;
  warmupSeconds: number;
  /** Measured seconds of each phase. */
  seconds: number;
}

interface HostilePhase {
  name: string;
  description: string;
  /** Paced (latency at a fixed rate) or as fast as answered (throughput). */
  paced: boolean;
  quotes: LoadResult;
  /** What the hostile clients got; absent for a phase without them. */
  sender?: SenderTally;
  /** The server's resident memory at its highest in the phase. */
  peakRssMiB: number;
}

export interface HostileReport {
  settings: HostileSettings;
  phases: HostilePhase[];
}

interface Victim {
  partnerId: string;
  keyId: string;
  key: string;
}

const quoteCommand = "dump ipck_vhcl-tprt-1111*PRMM";

/** The 8 MB bodies of the paced phases: the seed a single array of four million zeros. */
function zeroBodies(victim: Victim) {
  const seed = `[${"0,".repeat(ZEROS - 1)}0]`;
  const cmmnd = `{"cmmnd":${JSON.stringify(quoteCommand)},"seed":${seed}}`;
  const wrongKey = JSON.stringify({ id: victim.partnerId, athrzt: { id: victim.keyId, key: "x".repeat(victim.key.length) } });
  return [
    { name: "no userInfo", description: `${ZEROS.toLocaleString("en-US")} zeros as the seed, no \`userInfo\``, body: `{"cmmnd":${cmmnd}}` },
    { name: "wrong key", description: "the same with the partner's own id and a wrong key", body: `{"userInfo":${wrongKey},"cmmnd":${cmmnd}}` },
  ];
}

/** An unauthenticated body of one string as long as the shape limits let through (a 2 MiB document's room), padded to 8 MB. */
function stringBody(): string {
  const { maxStringLength } = jsonLimits(2 * 1024 * 1024);
  const filler = 8_000_000 - maxStringLength - 200;
  return `{"cmmnd":{"cmmnd":${JSON.stringify(quoteCommand)},"seed":{"insrncDrtn":"1y","note":"${"x".repeat(maxStringLength)}","more":"${"y".repeat(Math.max(0, Math.min(filler, maxStringLength)))}"}}}`;
}

/** Start a hostile client (bench/hostile-sender.ts) with `args`; `stop` ends it and returns its tally. */
function startSender(args: string[]) {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "hostile-sender.ts"), ...args], { stdout: "pipe", stderr: "inherit" });
  return {
    async stop(): Promise<SenderTally> {
      child.kill("SIGTERM");
      const [output] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      return JSON.parse(output.trim()) as SenderTally;
    },
  };
}

export async function measureHostile(
  service: Server,
  victim: Victim,
  settings: HostileSettings,
  scratchDir: string,
  say: (m: string) => void,
  /** Before each phase (the benchmark's checkpoint, so that none of PostgreSQL's own falls in one). */
  beforePhase: () => Promise<void>,
): Promise<HostileReport> {
  const body = JSON.stringify({
    userInfo: { id: victim.partnerId, athrzt: { id: victim.keyId, key: victim.key } },
    cmmnd: { cmmnd: quoteCommand, seed: { insrncDrtn: "1y" } },
  });
  const quotes = (seconds: number, paced: boolean) =>
    runLoad({
      url: service.url,
      connections: paced ? settings.connections : settings.throughputConnections,
      ...(paced ? { rate: settings.rate } : {}),
      duration: seconds,
      nextBody: () => body,
      classify: classifyCommandAnswer,
    });
  const phases: HostilePhase[] = [];
  /** One phase: the partner's quotes for `seconds`, the server's memory sampled every 100 ms, with `sender` (if any) running from a second before. */
  const phase = async (name: string, description: string, paced: boolean, senderArgs?: string[]) => {
    await beforePhase();
    const sender = senderArgs ? startSender(senderArgs) : undefined;
    if (sender) await Bun.sleep(1000); // the hostile clients are at it before the measurement starts
    let result: LoadResult | undefined;
    const memory = await measureMemory(service, settings.seconds, 0.1, async (seconds) => {
      result = await quotes(seconds, paced);
    });
    phases.push({ name, description, paced, quotes: result!, sender: await sender?.stop(), peakRssMiB: Math.max(...memory.map((m) => m.rssMiB)) });
    if (sender) await Bun.sleep(1000); // connections the server is still ending do not spill into the next phase
  };
  const bodyFile = async (name: string, text: string) => {
    const file = join(scratchDir, `hostile-${name}.json`);
    await Bun.write(file, text);
    return file;
  };

  await quotes(settings.warmupSeconds, true);
  await phase("alone", "nothing else on the service", true);
  for (const hostile of zeroBodies(victim))
    await phase(hostile.name, hostile.description, true, ["fast", service.url, "0", await bodyFile(hostile.name.replaceAll(" ", "-"), hostile.body), "1"]);
  await quotes(settings.warmupSeconds, false);
  await phase("alone, as fast as answered", "nothing else on the service", false);
  await phase(
    "string bodies",
    `${STRING_SENDERS} senders on ${STRING_SENDERS} addresses, each sending 8 MB bodies of long strings, no \`userInfo\`, ${STRING_SENDER_RATE} a second (under the refusal limit)`,
    false,
    ["fast", service.url, "1", await bodyFile("strings", stringBody()), String(STRING_SENDERS), String(STRING_SENDER_RATE)],
  );
  await phase(
    "slow bodies",
    `${SLOW_CONNECTIONS} connections from ${SLOW_ADDRESSES} addresses, each declaring 1,000,000 bytes and sending one a second`,
    false,
    ["slow", service.url, String(1 + STRING_SENDERS), String(SLOW_CONNECTIONS), String(SLOW_ADDRESSES)],
  );
  for (const p of phases)
    say(
      `hostile, ${p.name}: quote p50 ${p.quotes.p50Ms} ms, p99 ${p.quotes.p99Ms} ms, ${Math.round(p.quotes.requestsPerSecond)}/s, peak RSS ${p.peakRssMiB} MiB` +
        (p.sender ? `; hostile answers ${JSON.stringify(p.sender.outcomes)} in ${p.sender.meanMs} ms each` : ""),
    );
  return { settings, phases };
}
