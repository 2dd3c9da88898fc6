/**
 * `npm run bench:signals`: flagging a new claim (issue 37, item 6) with a million claims stored.
 *
 * A fresh PostgreSQL database (`bench_signals_<pid>` on postgres://postgres@127.0.0.1:5432, dropped at
 * the end; BENCH_DATABASE_URL names another, kept) holds BENCH_SIGNALS_CLAIMS claims (1,000,000) of 20
 * partners: one policy each, a consumer for every five, a vehicle (VIN and plate) on every third, a
 * phone (IMEI) on the next, and each claim's identifiers as the service keeps them — the keyed hashes
 * worked out by PostgreSQL itself (HMAC-SHA256 from sha256(), checked against the service's own) —
 * grown with generate_series in batches. Then BENCH_SIGNALS_TIMED (500) new claims, after 20 to warm,
 * are flagged one at a time as `claim submit` flags them (`newClaimSignals`: the rules and the match
 * read; the rows join the claim's own statement) and as a later re-flag does (`flagClaim` inside a
 * transaction: the read, the identifiers, the flags). A quarter share an IMEI with a stored claim, a
 * quarter a VIN and plate, a quarter the claimant's phone; every 50th a phone on 2,000 stored claims
 * (past the 1,000 matches read per identifier). Results go to docs/performance.md between the
 * bench-signals markers, with the machine's load average. BENCH_WRITE_DOCS=0 only prints them.
 */
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { loadConfig } from "../src/core/config";
import { openDatabase } from "../src/db/client";
import { createPartner } from "../src/modules/partners/service";
import { type FlagInput, flagClaim, newClaimSignals, signalSettings } from "../src/modules/signals";
import { keyedHash } from "../src/modules/signals/identifiers";
import { describeMachine, writeSection } from "./report";

const MARKERS: [string, string] = ["<!-- bench-signals:start -->", "<!-- bench-signals:end -->"];
/** The aim (issue 37): flag scoring of a new claim under this p95 with a million claims stored. */
const AIM_MS = 50;
const env = process.env;
const CLAIMS = Number(env.BENCH_SIGNALS_CLAIMS ?? 1_000_000);
const TIMED = Number(env.BENCH_SIGNALS_TIMED ?? 500);
const WARM = 20;
const PARTNERS = 20;
const BATCH = 100_000;
/** A phone the claimants of every 500th consumer share: 2,000 stored claims. */
const HOT_PHONE = "+2348000000000";
const root = fileURLToPath(new URL("..", import.meta.url));
const say = (line: string) => process.stdout.write(`[bench:signals] ${line}\n`);
const count = (n: number) => n.toLocaleString("en-NG");

/** The stored claims' values, by claim n (1-based) and consumer k = ceil(n / 5): written once for SQL and for the new claims. */
const VALUES = {
  consumer: (k: string) => `md5('consumer' || ${k})`,
  phone: (k: string) => `'+23481' || lpad((${k})::text, 8, '0')`,
  email: (k: string) => `'person' || ${k} || '@bench.ng'`,
  nationalId: (k: string) => `'NIDD:' || lpad((${k})::text, 11, '0')`,
  imei: (n: string) => `'35' || lpad((${n})::text, 13, '0')`,
  vin: (n: string) => `'BNCH' || lpad((${n})::text, 13, '0')`,
  plate: (n: string) => `'B' || lpad((${n})::text, 7, '0') || 'AB'`,
};
const plain = {
  consumer: (k: number) => createHash("md5").update(`consumer${k}`).digest("hex"),
  phone: (k: number) => `+23481${String(k).padStart(8, "0")}`,
  imei: (n: number) => `35${String(n).padStart(13, "0")}`,
  vin: (n: number) => `BNCH${String(n).padStart(13, "0")}`,
  plate: (n: number) => `B${String(n).padStart(7, "0")}AB`,
};

/** HMAC-SHA256 in SQL with the built-in sha256(): the key padded to 64 bytes, XORed with ipad and opad here. */
function hmacSql(key: Buffer): { inner: Buffer; outer: Buffer } {
  const block = Buffer.alloc(64);
  (key.length > 64 ? createHash("sha256").update(key).digest() : key).copy(block);
  return { inner: Buffer.from(block.map((b) => b ^ 0x36)), outer: Buffer.from(block.map((b) => b ^ 0x5c)) };
}

/** A JPEG's first bytes with an EXIF date: what the reader reads of a claim's photograph. */
function photograph(day: string): Uint8Array {
  const tiff = Buffer.alloc(64);
  tiff.write("II", 0, "latin1");
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0132, 10);
  tiff.writeUInt16LE(2, 12);
  tiff.writeUInt32LE(20, 14);
  tiff.writeUInt32LE(30, 18);
  tiff.write(`${day.replaceAll("-", ":")} 10:00:00\0`, 30, "latin1");
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), Buffer.from("Exif\0\0", "latin1"), tiff]);
  app1.writeUInt16BE(app1.length - 2, 2);
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8]), app1, Buffer.from([0xff, 0xd9])]));
}

async function grow(sql: postgres.Sql, partnerIds: string[], key: Buffer): Promise<void> {
  const { inner, outer } = hmacSql(key);
  // Bulk rows built consistent by construction: the foreign keys' triggers are skipped for this session.
  await sql`set session_replication_role = replica`;
  await sql`alter table claim_identifiers drop constraint claim_identifiers_claim_id_kind_hash_pk`;
  await sql`drop index claim_identifiers_kind_hash_idx`;
  const partnerOf = (k: string) => `($1::uuid[])[1 + (${k}) % ${PARTNERS}]`;
  for (let from = 1; from <= CLAIMS; from += BATCH) {
    const to = Math.min(CLAIMS, from + BATCH - 1);
    const started = performance.now();
    const [k0, k1] = [Math.ceil(from / 5), Math.ceil(to / 5)];
    await sql.unsafe(
      `insert into consumers (id, partner_id, class, email, profile, created_at, updated_at)
       select ${VALUES.consumer("k")}::uuid, ${partnerOf("k")}, 'h', ${VALUES.email("k")},
         jsonb_build_object('class', 'h', 'name', jsonb_build_object('first', 'Ada', 'last', 'Obi' || k),
           'phoneNo', case when k % 500 = 7 then '${HOT_PHONE}' else ${VALUES.phone("k")} end, 'eMail', ${VALUES.email("k")}),
         now() - interval '2 years', now() - interval '2 years'
       from generate_series($2::int, $3::int) as k
       on conflict do nothing`,
      [partnerIds, k0, k1],
    );
    await sql.unsafe(
      `insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, route, premium_kobo, duration,
         cover_start, cover_end, facts, printed, device_id, policy_no, certificate_token, created_at, status_at, registry_published_at)
       select md5('policy' || n)::uuid, ${partnerOf("((n + 4) / 5)")}, ${VALUES.consumer("((n + 4) / 5)")}::uuid, 'sig' || n,
         case n % 3 when 0 then 'vhcl-tprt-1111' when 1 then 'phnn-flx1-1111' else 'ltix-stnd-1111' end, 'live', 'a', 'insurer', 1500000, '1y',
         now() - interval '1 year' + make_interval(secs => n % 86400), now() + make_interval(secs => n % 86400), 
         case n % 3 when 0 then jsonb_build_object('chsssId', ${VALUES.vin("n")}, 'rgstrtId', ${VALUES.plate("n")})
           when 1 then jsonb_build_object('brand', 'Samsung', 'model', 'A54', 'uIdnt', ${VALUES.imei("n")}) else '{}'::jsonb end,
         '[]'::jsonb, case when n % 3 = 1 then 'imei:' || ${VALUES.imei("n")} end, 'POL-SIGN-2026-' || lpad(n::text, 12, '0'), md5('signals' || n),
         now() - interval '1 year', now() - interval '1 year', now()
       from generate_series($2::int, $3::int) as n`,
      [partnerIds, from, to],
    );
    await sql.unsafe(
      `insert into claims (id, partner_id, policy_id, claim_no, status, incident_date, description, claimed_kobo, reserve_kobo, history,
         settlement_due_on, created_at, updated_at)
       select md5('claim' || n)::uuid, ${partnerOf("((n + 4) / 5)")}, md5('policy' || n)::uuid, 'CLM-2026-' || lpad(n::text, 10, '0'), 'paid',
         current_date - 200, 'bench', 5000000, 0, '[]'::jsonb, current_date - 140,
         now() - interval '200 days' + make_interval(secs => n), now() - interval '150 days'
       from generate_series($2::int, $3::int) as n`,
      [partnerIds, from, to],
    );
    // Each claim's identifiers: the claimant (the consumer, a phone, an e-mail, an identity number for every other one) and the insured item.
    await sql.unsafe(
      `insert into claim_identifiers (claim_id, kind, hash, partner_id, policy_id, mode, claimed_at, created_at)
       select md5('claim' || n)::uuid, v.kind, sha256($5::bytea || sha256($4::bytea || convert_to(v.kind || ':' || v.value, 'UTF8'))),
         ${partnerOf("((n + 4) / 5)")}, md5('policy' || n)::uuid, 'live', now() - interval '200 days' + make_interval(secs => n), now()
       from generate_series($2::int, $3::int) as n,
         lateral (values
           ('consumer', ${VALUES.consumer("((n + 4) / 5)")}),
           ('phone', case when ((n + 4) / 5) % 500 = 7 then '${HOT_PHONE}' else ${VALUES.phone("((n + 4) / 5)")} end),
           ('email', ${VALUES.email("((n + 4) / 5)")}),
           ('national_id', case when ((n + 4) / 5) % 2 = 0 then ${VALUES.nationalId("((n + 4) / 5)")} end),
           ('imei', case when n % 3 = 1 then ${VALUES.imei("n")} end),
           ('vin', case when n % 3 = 0 then ${VALUES.vin("n")} end),
           ('plate', case when n % 3 = 0 then ${VALUES.plate("n")} end)
         ) as v(kind, value)
       where v.value is not null`,
      [partnerIds, from, to, inner, outer],
    );
    say(`${count(to)} claims (${Math.round(performance.now() - started)} ms)`);
  }
  say("building the indexes of claim_identifiers");
  await sql`alter table claim_identifiers add constraint claim_identifiers_claim_id_kind_hash_pk primary key (claim_id, kind, hash)`;
  await sql`create index claim_identifiers_kind_hash_idx on claim_identifiers using btree (kind, hash)`;
  await sql`set session_replication_role = origin`;
  for (const table of ["consumers", "policies", "claims", "claim_identifiers"]) await sql.unsafe(`vacuum analyze ${table}`);
}

const percentile = (sorted: number[], q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;

async function main(): Promise<void> {
  const given = env.BENCH_DATABASE_URL;
  const base = new URL("postgres://postgres@127.0.0.1:5432/postgres");
  const name = `bench_signals_${process.pid}`;
  const url = given ?? Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const admin = given ? null : postgres(base.toString(), { max: 1, onnotice: () => {} });
  if (admin) await admin`create database ${admin(name)}`;
  const database = await openDatabase({ url });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const db = database.db;
    const [{ server_version: pgVersion }] = (await sql`show server_version`) as unknown as [{ server_version: string }];
    const config = loadConfig({});
    const settings = await signalSettings(db, config);
    const [{ value: secret }] = (await sql`select value from service_secrets where name = 'signals'`) as unknown as [{ value: string }];
    const key = Buffer.from(secret, "utf8");
    // The SQL HMAC is the service's keyed hash.
    const [{ hash: checked }] =
      (await sql`select sha256(${hmacSql(key).outer} || sha256(${hmacSql(key).inner} || convert_to('imei:123', 'UTF8'))) as hash`) as unknown as [
        { hash: Buffer },
      ];
    if (!Buffer.from(checked).equals(Buffer.from(keyedHash(settings.key, "imei", "123")))) throw new Error("the SQL HMAC differs from the service's");

    const partners: string[] = [];
    for (let i = 0; i < PARTNERS; i++) partners.push((await createPartner(db, { name: `bench signals ${i}` })).partnerId);
    const growing = performance.now();
    const [{ n: have }] = (await sql`select count(*)::int as n from claims where claim_no like 'CLM-2026-%'`) as unknown as [{ n: number }];
    if (have < CLAIMS) await grow(sql, partners, key);
    const grownSeconds = Math.round((performance.now() - growing) / 1000);
    const [{ claims, identifiers, size }] =
      (await sql`select (select count(*)::int from claims) as claims, (select count(*)::int from claim_identifiers) as identifiers,
      pg_size_pretty(pg_total_relation_size('claim_identifiers')) as size`) as unknown as [{ claims: number; identifiers: number; size: string }];
    say(`${count(claims)} claims, ${count(identifiers)} identifiers (${size}), grown in ${grownSeconds} s`);

    // The new claims' policies: one each, live, of a partner of their own; the claims themselves are flagged, as the claims module flags them.
    const total = WARM + TIMED;
    await sql.unsafe(
      `insert into policies (id, partner_id, consumer_id, reference, product_code, mode, status, route, premium_kobo, duration,
         cover_start, cover_end, facts, printed, policy_no, certificate_token, created_at, status_at, registry_published_at)
       select md5('new policy' || i)::uuid, ($1::uuid[])[1 + i % ${PARTNERS}], md5('consumer1')::uuid, 'new' || i, 'phnn-flx1-1111', 'live', 'a', 'insurer',
         1500000, '1y', now() - interval '30 days', now() + interval '1 year', '{}'::jsonb, '[]'::jsonb, 'POL-SIGN-NEW-' || i, md5('new' || i), now(), now(), now()
       from generate_series(0, $2::int - 1) as i`,
      [partners, total],
    );
    const inputOf = (i: number): FlagInput => {
      const stored = 1 + ((i * 7919) % CLAIMS); // a stored claim to share something with
      const k = 300_000 + i; // a claimant of its own, unless it shares
      const kind = i % 50 === 5 ? "hot" : (["imei", "vehicle", "phone", "none"] as const)[i % 4];
      const phoneClaim = stored - ((stored - 1) % 3); // n % 3 = 1
      const vehicleClaim = Math.max(3, stored - (stored % 3)); // n % 3 = 0
      return {
        claimId: crypto.randomUUID(),
        partnerId: partners[i % PARTNERS]!,
        policyId: createHash("md5")
          .update(`new policy${i}`)
          .digest("hex")
          .replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, "$1-$2-$3-$4-$5"),
        mode: "live",
        claimant: {
          consumerId: plain.consumer(k),
          phone: kind === "hot" ? HOT_PHONE : kind === "phone" ? plain.phone(Math.ceil(stored / 5)) : plain.phone(k),
          email: `new${i}@bench.ng`,
          nationalId: { type: "nidd", id: String(k).padStart(11, "0") },
        },
        insured:
          kind === "imei"
            ? { imei: plain.imei(phoneClaim) }
            : kind === "vehicle"
              ? { vin: plain.vin(vehicleClaim), plate: plain.plate(vehicleClaim) }
              : { imei: `99${String(i).padStart(13, "0")}` },
        incidentDate: new Date(Date.now() + 3_600_000).toISOString().slice(0, 10),
        coverStart: new Date(Date.now() - 30 * 86_400_000),
        submittedAt: new Date(),
        // A tenth at the sum insured, a tenth with a photograph dated before the cover.
        claimedKobo: i % 10 === 1 ? 14_500_000 : 4_500_000,
        ceilingKobo: 15_000_000,
        photos: [photograph(i % 10 === 2 ? "2025-01-01" : new Date().toISOString().slice(0, 10))],
        settings,
      };
    };

    const load: number[] = [loadavg()[0]!];
    const submitTimes: number[] = [];
    const reflagTimes: number[] = [];
    const flagged = { matched: 0, secondReviewer: 0 };
    for (let i = 0; i < total; i++) {
      const input = inputOf(i);
      let started = performance.now();
      const { signals } = await newClaimSignals(db, input);
      const submit = performance.now() - started;
      started = performance.now();
      await db.transaction((tx) => flagClaim(tx, input));
      const reflag = performance.now() - started;
      if (i < WARM) continue;
      submitTimes.push(submit);
      reflagTimes.push(reflag);
      if (signals.flags.some((f) => f.rule !== "early_claim" && f.rule !== "photo_date" && f.rule !== "at_ceiling")) flagged.matched++;
      if (signals.needsSecondReviewer) flagged.secondReviewer++;
      if (i % 100 === 0) load.push(loadavg()[0]!);
    }
    load.push(loadavg()[0]!);
    const rows = [
      ["a new claim's flags, as `claim submit` works them out (`newClaimSignals`: hashes, the match read, the rules)", submitTimes],
      ["flagging a claim again in a transaction (`flagClaim`: the read, the identifiers and flags written, commit)", reflagTimes],
    ] as const;
    const results = rows.map(([what, times]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return { what, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: percentile(sorted, 1) };
    });
    const machine = describeMachine(pgVersion);
    const section = [
      `## Fraud signals (issue 37, item 6; \`npm run bench:signals\`, ${new Date().toISOString().slice(0, 10)})`,
      "",
      `${count(claims)} claims stored (one policy each, ${PARTNERS} partners, a consumer for every five), with their ${count(identifiers)} identifiers as keyed hashes`,
      `(\`claim_identifiers\`, ${size} with its two indexes), grown with generate_series in ${grownSeconds} s. ${count(TIMED)} new claims timed one at a time after ${WARM} to warm:`,
      "a quarter share an IMEI with a stored claim, a quarter a VIN and plate, a quarter the claimant's phone (about five earlier claims each), every 50th a phone",
      `on 2,000 stored claims (past the 1,000 matches read per identifier); each has a photograph to read. ${count(flagged.matched)} matched stored claims,`,
      `${count(flagged.secondReviewer)} reached the review score. In-process against PostgreSQL ${machine.postgres} on the same machine, ${machine.cores} cores (${machine.cpu}).`,
      `The machine's load average (1 min) while timing: ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}, on ${machine.cores} cores (other work shared them).`,
      "",
      `Aim: flag scoring of a new claim under ${AIM_MS} ms at p95 with a million claims stored; measured: ${results[0]!.p95} ms (the re-flag with its writes and commit: ${results[1]!.p95} ms).`,
      "",
      "| what | p50 | p95 | p99 | max |",
      "|---|---:|---:|---:|---:|",
      ...results.map((r) => `| ${r.what} | ${r.p50} ms | ${r.p95} ms | ${r.p99} ms | ${r.max} ms |`),
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (env.BENCH_WRITE_DOCS !== "0") writeSection(join(root, "docs/performance.md"), section, MARKERS);
  } finally {
    await sql.end();
    await database.close();
    if (admin) {
      await admin`drop database if exists ${admin(name)} with (force)`.catch(() => {});
      await admin.end();
    }
  }
}

await main();
