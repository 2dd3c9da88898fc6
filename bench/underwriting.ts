/**
 * `npm run bench:underwriting`: how fast the background job decides a backlog of live policies.
 *
 * On a fresh database it issues BENCH_UNDERWRITING_POLICIES (3,000) live third-party vehicle
 * policies across 20 funded partners (all pending for the insurer), the product earning a 10 %
 * commission as an operator would set it, then runs the underwriting job in its own batches
 * (BENCH_UNDERWRITING_BATCH sets another size) until nothing is due, and prints the time it took and
 * the CPU per decision of this process and of PostgreSQL (from /proc). Print only; the figures go to
 * docs/performance.md by hand. The database is dropped at the end. Env: BENCH_DATABASE_URL,
 * BENCH_UNDERWRITING_POLICIES, BENCH_UNDERWRITING_BATCH.
 */
import { openDatabase } from "../src/db/client";
import { changeRate } from "../src/modules/commissions/service";
import { issuePolicy } from "../src/modules/issuance/issuance";
import { simulatedInsurer, underwriteDuePolicies } from "../src/modules/issuance/underwriting";
import { cpuMs, fundedPartners, postgresPids, withScratchDatabase } from "./measure";
import { benchInsureSeed } from "./seeds";

const env = process.env;
const POLICIES = Number(env.BENCH_UNDERWRITING_POLICIES ?? 3000);
const PARTNERS = 20;

await withScratchDatabase("underwriting", async (url) => {
  const database = await openDatabase({ url });
  const db = database.db;
  const callers = await fundedPartners(db, PARTNERS, "underwriting", 10_000_000_000);
  // Every approval earns its partner a commission line, as in production.
  await changeRate(
    db,
    { label: "bench", partnerId: callers[0]!.partner.partnerId },
    { productCode: "vhcl-tprt-1111", partnerId: null, basisPoints: 1000 },
    new Date(),
  );
  // Fifty at a time, as requests arriving together would (they share statements).
  for (let i = 0; i < POLICIES; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, POLICIES - i) }, (_, j) => callers[(i + j) % PARTNERS]!).map(({ partner, consumerId }) =>
        issuePolicy(db, { partnerId: partner.partnerId, mode: "live", consumerParam: consumerId, seed: benchInsureSeed(), now: new Date(), insurerDelayMs: 0 }),
      ),
    );

  const pids = postgresPids();
  const before = { service: process.cpuUsage(), postgres: cpuMs(pids), at: performance.now() };
  let decided = 0;
  for (;;) {
    const handled = await underwriteDuePolicies(db, simulatedInsurer, new Date(Date.now() + 1000), {
      batch: env.BENCH_UNDERWRITING_BATCH ? Number(env.BENCH_UNDERWRITING_BATCH) : undefined,
    });
    if (!handled) break;
    decided += handled;
  }
  const service = process.cpuUsage(before.service);
  const ms = performance.now() - before.at;
  const perDecision = (us: number) => Math.round(us / decided);
  console.log(
    `[underwriting] ${decided} live policies decided in ${Math.round(ms)} ms (${Math.round((decided * 1000) / ms)} a second); ` +
      `CPU per decision: this process ${perDecision(service.user + service.system)} µs, PostgreSQL ${perDecision((cpuMs(pids) - before.postgres) * 1000)} µs`,
  );
  await database.close();
});
