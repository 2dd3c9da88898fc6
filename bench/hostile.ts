/**
 * The `hostile` scenario (issue 13): one partner's quote latency with nobody else on the service,
 * then while one connection sends 8 MB hostile bodies back to back — four million zeros as the seed,
 * once without `userInfo` and once with the partner's own id and a wrong key — each as fast as the
 * service takes them. The partner's quotes are paced (a fixed rate far below capacity, latency
 * corrected for coordinated omission), so their p99 shows what the hostile bodies cost them, not
 * queueing under saturation.
 */
import { join } from "node:path";
import type { SenderTally } from "./hostile-sender";
import { classifyCommandAnswer, type LoadResult, runLoad } from "./load";
import type { Server } from "./servers";

/** Zeros in the hostile seed: with the envelope, just under the 8 MiB body limit. */
const ZEROS = 4_000_000;

export interface HostileSettings {
  /** The partner's quotes a second, over `connections`. */
  rate: number;
  connections: number;
  warmupSeconds: number;
  /** Measured seconds of each phase. */
  seconds: number;
}

interface HostilePhase {
  name: string;
  description: string;
  quotes: LoadResult;
  /** What the hostile client got; absent for the phase without one. */
  sender?: SenderTally;
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

/** The hostile bodies: the seed a single array of four million zeros. */
function hostileBodies(victim: Victim) {
  const seed = `[${"0,".repeat(ZEROS - 1)}0]`;
  const cmmnd = `{"cmmnd":${JSON.stringify(quoteCommand)},"seed":${seed}}`;
  const wrongKey = JSON.stringify({ id: victim.partnerId, athrzt: { id: victim.keyId, key: "x".repeat(victim.key.length) } });
  return [
    { name: "no userInfo", description: `${ZEROS.toLocaleString("en-US")} zeros as the seed, no \`userInfo\``, body: `{"cmmnd":${cmmnd}}` },
    { name: "wrong key", description: "the same with the partner's own id and a wrong key", body: `{"userInfo":${wrongKey},"cmmnd":${cmmnd}}` },
  ];
}

/** Start the hostile client on `body`; `stop` ends it and returns its tally. */
async function startSender(url: string, body: string, dir: string, name: string) {
  const bodyFile = join(dir, `hostile-${name.replaceAll(" ", "-")}.json`);
  await Bun.write(bodyFile, body);
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "hostile-sender.ts"), url, bodyFile], { stdout: "pipe", stderr: "inherit" });
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
): Promise<HostileReport> {
  const body = JSON.stringify({
    userInfo: { id: victim.partnerId, athrzt: { id: victim.keyId, key: victim.key } },
    cmmnd: { cmmnd: quoteCommand, seed: { insrncDrtn: "1y" } },
  });
  const quotes = (seconds: number) =>
    runLoad({
      url: service.url,
      connections: settings.connections,
      rate: settings.rate,
      duration: seconds,
      nextBody: () => body,
      classify: classifyCommandAnswer,
    });

  await quotes(settings.warmupSeconds);
  const phases: HostilePhase[] = [{ name: "alone", description: "nothing else on the service", quotes: await quotes(settings.seconds) }];
  for (const hostile of hostileBodies(victim)) {
    const sender = await startSender(service.url, hostile.body, scratchDir, hostile.name);
    await Bun.sleep(1000); // the first hostile body is on its way before the measurement starts
    const result = await quotes(settings.seconds);
    phases.push({ name: hostile.name, description: hostile.description, quotes: result, sender: await sender.stop() });
  }
  for (const phase of phases)
    say(
      `hostile, ${phase.name}: quote p50 ${phase.quotes.p50Ms} ms, p99 ${phase.quotes.p99Ms} ms${phase.sender ? `; hostile answers ${JSON.stringify(phase.sender.outcomes)} in ${phase.sender.meanMs} ms each` : ""}`,
    );
  return { settings, phases };
}
