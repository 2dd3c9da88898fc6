/**
 * For benchmarks that say what a piece of work costs: a scratch database, partners to load it
 * with, and CPU accounting from /proc (Linux).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import postgres from "postgres";
import type { Database } from "../src/db/client";
import { registerConsumer } from "../src/modules/consumers/service";
import { createPartner } from "../src/modules/partners/service";
import { creditWallet } from "../src/modules/wallet/service";
import { benchPerson } from "./seeds";

/**
 * `work` on a new database `<prefix>_<timestamp>` of the server at BENCH_DATABASE_URL
 * (postgres://postgres@127.0.0.1:5432/postgres), given its URL; the database is dropped afterwards.
 */
export async function withScratchDatabase(prefix: string, work: (url: string) => Promise<void>): Promise<void> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const dbName = `${prefix}_${Date.now()}`;
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin`create database ${admin(dbName)}`;
  try {
    await work(url.toString());
  } finally {
    await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end({ timeout: 5 });
  }
}

/** `count` partners named `<name> <i>`, each with a registered consumer and `fundsKobo` in its wallet. */
export async function fundedPartners(db: Database, count: number, name: string, fundsKobo: number) {
  const partners: { partner: Awaited<ReturnType<typeof createPartner>>; consumerId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const partner = await createPartner(db, { name: `${name} ${i}` });
    const consumer = await registerConsumer(db, partner.partnerId, benchPerson(), { maxDocumentBytes: 1 << 20 });
    await db.transaction((tx) => creditWallet(tx, partner.partnerId, { amountKobo: fundsKobo, reference: `${name}-funds` }, new Date()));
    partners.push({ partner, consumerId: consumer.id });
  }
  return partners;
}

/** CPU time (user + system, with waited-for children) of these processes in ms. */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

const postgresUid = (() => {
  try {
    return Number(readFileSync("/etc/passwd", "utf8").match(/^postgres:[^:]*:(\d+):/m)?.[1] ?? -1);
  } catch {
    return -1;
  }
})();

/** PostgreSQL's processes on this machine (the server runs as user postgres). */
export const postgresPids = () =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return statSync(`/proc/${pid}`).uid === postgresUid;
      } catch {
        return false;
      }
    });
