/**
 * The API log (issue 8): every answered request of a known partner is kept — after the flusher
 * writes it, never by the request itself — with its key and secrets redacted, documents replaced,
 * bodies cut; refusals before the partner is known are not; the buffer is bounded; retention keeps
 * the newest N per partner and 7 days; graceful shutdown writes what waits.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { scrubText } from "../src/core/log";
import { type Database, openDatabase } from "../src/db/client";
import { ApiLogBuffer, replaceApiLogBuffer } from "../src/modules/api-log/buffer";
import { type ApiLogRow, apiLogRow, type CommandExchange, clipText, loggedJson, MAX_BODY_CHARS, redactedJson } from "../src/modules/api-log/entry";
import { apiLogJobs } from "../src/modules/api-log/jobs";
import { apiRequests } from "../src/modules/api-log/schema";
import { insertApiRequests, listApiRequests, pruneApiRequests } from "../src/modules/api-log/service";
import { createPartner, type NewPartner } from "../src/modules/partners/service";
import { engine, individual, PNG_BASE64, testApp, testDatabase } from "./support/harness";
import { insureSeed, productCases } from "./support/policies";
import { freshPostgresDatabase } from "./support/reliability";
import { startAppProcess } from "./support/webhook-receiver";

// This file's apps get a buffer whose timer never fires during a test, so "not written yet" is deterministic.
const database = await testDatabase();
const buffer = replaceApiLogBuffer(database.db, { flushIntervalMs: 3_600_000 });
// Apps built after this file (in the same test process) get the normal settings back.
afterAll(() => void replaceApiLogBuffer(database.db));
const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
const db = t.database.db;

const rowsOf = (partnerId: string) =>
  db.select().from(apiRequests).where(eq(apiRequests.partnerId, partnerId)).orderBy(asc(apiRequests.createdAt), asc(apiRequests.id));
const keysOf = (p: NewPartner) => Object.values(p.keys).map((k) => k.key);

/** A document big enough to be one: a real PNG with `extra` bytes after it. */
const pngOf = (extra: number) => Buffer.concat([Buffer.from(PNG_BASE64, "base64"), Buffer.alloc(extra, 1)]).toString("base64");

describe("what is written, and when", () => {
  test("the request does not write: its row waits in memory until the flusher writes it, with the exchange and without the key", async () => {
    const p = await t.partner();
    const before = buffer.stats();
    const answer = await p.run("dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "1y" });
    expect(answer.exctnFdbck.id).toBe(75);
    expect(buffer.stats().recorded).toBe(before.recorded + 1);
    expect(await rowsOf(p.partnerId)).toEqual([]);
    await buffer.flush();
    const [row] = await rowsOf(p.partnerId);
    expect(row).toMatchObject({
      command: "dump ipck_<product_code>*PRMM",
      commandText: "dump ipck_vhcl-tprt-1111*PRMM",
      keyId: p.keys.test.id,
      keyLabel: "test",
      mode: "test",
      outcome: 75,
      status: 200,
      requestLength: row!.request.length,
      responseLength: row!.response.length,
    });
    expect(row!.durationMs).toBeGreaterThan(0);
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(JSON.parse(row!.request)).toEqual({
      userInfo: { id: p.partnerId, athrzt: { id: p.keys.test.id, key: "[redacted]" } },
      cmmnd: { cmmnd: "dump ipck_vhcl-tprt-1111*PRMM", seed: { insrncDrtn: "1y" } },
    });
    expect(JSON.parse(row!.response)).toEqual(answer);
    for (const key of keysOf(p)) expect(JSON.stringify(row)).not.toContain(key);
  });

  test("documents become <base64, N bytes>, secrets are redacted by name and by shape, bodies are cut at 8 KB", async () => {
    const p = await t.partner();
    const image = pngOf(3_000);
    const decoded = Buffer.from(image, "base64").length;
    const consumer = await p.run("prfl entity", individual({ socialID: { type: "nidd", id: "12345678901", image }, taxId: "TIN-0012345" }));
    expect(consumer.exctnFdbck.id).toBe(75);
    // A key pasted into a field by mistake, and a long address (refused, and logged all the same).
    await p.run("prfl entity", individual({ name: { first: p.keys.live.key }, addrss: { addrss: "12 Admiralty Way, ".repeat(1_200) } }));
    const hook = await p.run("webhook register", { url: "http://127.0.0.1:9/hooks" });
    expect(hook.secret).toMatch(/^whsec_/);
    // An inline certificate in a status answer (marine export: a DOCX).
    const c = productCases["mexx-stnd-1111"]!;
    const issued = await p.run(`entt_${consumer.id}: insure`, insureSeed(c));
    const status = await p.run(`dump entt_${consumer.id}|insr_${c.code}-${issued.id}*STATUS`);
    expect(status.crtfct.length).toBeGreaterThan(1000);
    await buffer.flush();
    const [register, refused, webhook, , statusRow] = await rowsOf(p.partnerId);
    expect(JSON.parse(register!.request).cmmnd.seed.socialID).toEqual({ type: "nidd", id: "12345678901", image: `<base64, ${decoded} bytes>` });
    expect(register!.request).not.toContain(image.slice(0, 100));

    expect([refused!.outcome, refused!.status]).toEqual([55, 400]);
    expect(refused!.request).toContain("[redacted key]");
    expect(refused!.request.length).toBe(MAX_BODY_CHARS);
    expect(refused!.requestLength).toBeGreaterThan(20_000);

    expect(JSON.parse(webhook!.response).secret).toBe("[redacted]");
    expect(webhook!.response).not.toContain(hook.secret);

    const storedStatus = JSON.parse(statusRow!.response);
    expect(storedStatus).toMatchObject({ status: "a", crtfctType: "docx", crtfct: `<base64, ${Buffer.from(status.crtfct, "base64").length} bytes>` });

    const all = JSON.stringify(await rowsOf(p.partnerId));
    for (const secret of [...keysOf(p), hook.secret]) expect(all).not.toContain(secret);
  });

  test("refusals after the partner is known are logged; refusals before it are not", async () => {
    const p = await t.partner();
    const admin = await p.run("dump entt_*ADMIN");
    expect(admin.exctnFdbck.id_v4).toBe(403);
    expect((await p.run("no such command")).exctnFdbck.id_v4).toBe(400);
    expect((await p.run("wallet topup", { amount: "5000", reference: "r1" }, "live")).exctnFdbck.id_v4).toBe(400);
    // Before the partner is known: a wrong key, a malformed body, a bad envelope.
    const wrongKey = { userInfo: { id: p.partnerId, athrzt: { id: p.keys.test.id, key: p.keys.live.key } }, cmmnd: { cmmnd: "dump entt_*" } };
    expect((await t.post(wrongKey)).exctnFdbck.id_v4).toBe(401);
    expect((await t.post(`{"userInfo": {"id": "${p.partnerId}"`)).exctnFdbck.id_v4).toBe(400);
    expect((await t.post({ userInfo: { id: p.partnerId }, cmmnd: { cmmnd: "dump entt_*" } })).exctnFdbck.id_v4).toBe(400);
    // A rate-limit refusal is the partner's own (another app: the limit is per app in memory).
    const limited = await testApp({ RATE_LIMIT_MAX: 1 });
    const envelope = p.envelope("dump entt_*");
    expect((await limited.post(envelope)).exctnFdbck.id).toBe(75);
    expect((await limited.post(envelope)).exctnFdbck).toMatchObject({ id: 55, id_v4: 429 });
    await buffer.flush();
    const rows = await rowsOf(p.partnerId);
    expect(rows.map((r) => [r.command, r.commandText, r.outcome, r.status])).toEqual([
      ["dump entt_*ADMIN", "dump entt_*ADMIN", 55, 403],
      [null, "no such command", 55, 400],
      ["wallet topup", "wallet topup", 55, 400],
      ["dump entt_*", "dump entt_*", 75, 200],
      ["dump entt_*", "dump entt_*", 55, 429],
    ]);
    expect(JSON.parse(rows[2]!.response).exctnFdbck.elbrtn).toContain("seed.amount");
  });
});

describe("redaction without the replacer", () => {
  const slow = (value: unknown) => {
    const text = scrubText(redactedJson(value));
    return { text: clipText(text, MAX_BODY_CHARS), length: text.length };
  };
  // Values as requests and answers hold them, with what must be redacted mixed in: secret-named
  // fields (any case, inside other names, with escaped quotes), documents with and without a
  // data: prefix or line breaks, API keys and long strings that are not documents.
  const awkward = fc.oneof(
    fc.constantFrom("secret", "webhookSecret", "PASSWORD", 'x"token', "key", "Key", "apiKey", "api_key", "authorization", "cookies", "keys", "monkey"),
    fc.string(),
  );
  const document = fc.constantFrom(PNG_BASE64, `data:image/png;base64,${PNG_BASE64}`, `${PNG_BASE64.slice(0, 100)}\r\n${PNG_BASE64.slice(100)}`);
  const text = fc.oneof(fc.string(), document, fc.constant("x".repeat(200)), fc.constant(`sk_live_${"a".repeat(40)}`), fc.constant("[redacted]"));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.boolean(), fc.constant(null), tie("list"), tie("object")),
    list: fc.array(tie("node"), { maxLength: 4 }),
    object: fc.dictionary(awkward, tie("node"), { maxKeys: 4 }),
  })).node;

  test("the fast path writes exactly what the replacer would, for any value", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(loggedJson(v)).toEqual(slow(v));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("reading the log", () => {
  test("each partner reads only its own, newest first, a page at a time, filtered by command and outcome", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    for (let i = 0; i < 12; i++) {
      await a.run("dump ipck_phnn-flx1-1111*PRMM", { insrncDrtn: i % 2 ? "1y" : "6m" });
      if (i % 3 === 0) await a.run("dump ipck_phnn-flx1-1111*PRMM", { insrncDrtn: "2y" });
      await b.run("dump entt_*");
    }
    await buffer.flush();
    const all = await rowsOf(a.partnerId);
    expect(all).toHaveLength(16);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listApiRequests(db, a.partnerId, {}, { limit: 5, cursor });
      pages.push(page.items.map((r) => r.id));
      expect(page.items.every((r) => r.partnerId === a.partnerId)).toBe(true);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 1]);
    expect(pages.flat()).toEqual(all.map((r) => r.id).reverse());

    const errors = await listApiRequests(db, a.partnerId, { outcome: 55 }, { limit: 50 });
    expect(errors.items).toHaveLength(4);
    expect(errors.items.every((r) => r.status === 400 && r.request.includes('"2y"'))).toBe(true);
    expect((await listApiRequests(db, a.partnerId, { command: "dump entt_*" }, { limit: 50 })).items).toEqual([]);
    expect((await listApiRequests(db, b.partnerId, { command: "dump entt_*" }, { limit: 50 })).items).toHaveLength(12);
    expect((await listApiRequests(db, b.partnerId, { command: null }, { limit: 50 })).items).toEqual([]);
  });
});

/** An exchange of `partner` without going through HTTP (for the buffer's own tests). */
function exchange(partner: NewPartner, response: Record<string, unknown> = { prmm: 15000, currency: "NGN" }): CommandExchange {
  return {
    principal: {
      partnerId: partner.partnerId,
      partnerName: partner.name,
      isAdmin: false,
      enrichmentEnabled: false,
      keyId: partner.keys.test.id,
      keyLabel: "test",
      mode: "test",
    },
    envelope: {
      userInfo: { id: partner.partnerId, athrzt: { id: partner.keys.test.id, key: partner.keys.test.key } },
      cmmnd: { cmmnd: "dump ipck_vhcl-tprt-1111*PRMM", seed: { insrncDrtn: "1y" } },
    },
    command: "dump ipck_<product_code>*PRMM",
    requestId: crypto.randomUUID(),
    response: { ...response, exctnFdbck: { id: 75, id_v4: 200 } },
    durationMs: 1.5,
  };
}

describe("the buffer is bounded", () => {
  test("past its bounds (entries, per partner, characters) a row is dropped and counted; what was kept is written", async () => {
    const [a, b, c] = [await t.partner(), await t.partner(), await t.partner()];
    const bounded = new ApiLogBuffer(db, { flushIntervalMs: 3_600_000, maxEntries: 5, maxPerPartner: 3, maxChars: 1_000_000 });
    for (let i = 0; i < 4; i++) bounded.record(exchange(a)); // the 4th is over a's share
    for (let i = 0; i < 3; i++) bounded.record(exchange(b)); // the 3rd is over the whole buffer
    expect(bounded.stats()).toEqual({ recorded: 5, written: 0, dropped: 2, failed: 0, waiting: 5 });
    await bounded.flush();
    expect(bounded.stats()).toEqual({ recorded: 5, written: 5, dropped: 2, failed: 0, waiting: 0 });
    expect((await rowsOf(a.partnerId)).length).toBe(3);
    expect((await rowsOf(b.partnerId)).length).toBe(2);
    // Room again once written; characters are a bound too.
    const small = new ApiLogBuffer(db, { flushIntervalMs: 3_600_000, maxChars: 3_000 });
    expect(small.add(apiLogRow(exchange(c, { blob: "y ".repeat(1_000) })))).toBe(true);
    expect(small.add(apiLogRow(exchange(c, { blob: "y ".repeat(1_000) })))).toBe(false);
    expect(small.stats()).toMatchObject({ recorded: 1, dropped: 1, waiting: 1 });
    await small.close();
    // Closed: nothing more is taken.
    small.record(exchange(c));
    expect(small.stats()).toEqual({ recorded: 1, written: 1, dropped: 2, failed: 0, waiting: 0 });
  });

  test("a full batch is written at once, the rest after the interval; a refused batch is counted, never thrown", async () => {
    const p = await t.partner();
    const batching = new ApiLogBuffer(db, { flushIntervalMs: 200, batchSize: 3 });
    for (let i = 0; i < 3; i++) batching.record(exchange(p));
    for (let i = 0; i < 50 && batching.stats().written < 3; i++) await Bun.sleep(10);
    expect(batching.stats()).toMatchObject({ written: 3, waiting: 0 });
    batching.record(exchange(p));
    expect(batching.stats().waiting).toBe(1);
    for (let i = 0; i < 100 && batching.stats().written < 4; i++) await Bun.sleep(10);
    expect(batching.stats()).toMatchObject({ written: 4, waiting: 0 });
    expect(await rowsOf(p.partnerId)).toHaveLength(4);

    // A database that refuses every statement (down, or a row it will not take).
    const refusing = { execute: () => Promise.reject(new Error("connection refused")) } as unknown as Database;
    const failing = new ApiLogBuffer(refusing, { flushIntervalMs: 3_600_000 });
    failing.record(exchange(p));
    await failing.flush();
    expect(failing.stats()).toMatchObject({ recorded: 1, written: 0, failed: 1, waiting: 0 });
  });

  test("cutting never splits a character, and the cut body keeps its length", () => {
    expect(clipText("ab😀", 3)).toBe("ab");
    const cut = loggedJson({ text: "é".repeat(20_000) });
    expect(cut.text).toHaveLength(MAX_BODY_CHARS);
    expect(cut.length).toBe(20_000 + '{"text":""}'.length);
  });
});

describe("retention", () => {
  const row = (partnerId: string, createdAt: Date, n: number): ApiLogRow => ({
    ...apiLogRow(exchange({ partnerId, keys: { test: { id: crypto.randomUUID(), key: "k" } } } as unknown as NewPartner)),
    command_text: `row ${n}`,
    created_at: createdAt.toISOString(),
  });

  test("each partner keeps its newest N and nothing older than 7 days, in batches; the job waits for its interval", async () => {
    const [a, b] = [await t.partner(), await t.partner()];
    const now = Date.now();
    await insertApiRequests(db, [
      ...Array.from({ length: 12 }, (_, i) => row(a.partnerId, new Date(now - i * 60_000), i)),
      row(b.partnerId, new Date(now - 60_000), 0),
      row(b.partnerId, new Date(now - 8 * 86_400_000), 1),
      row(b.partnerId, new Date(now - 9 * 86_400_000), 2),
    ]);
    let deleted = 0;
    for (let round = 0; round < 1_000; round++) {
      const n = await pruneApiRequests(db, new Date(now), { keep: 10, batch: 3 });
      deleted += n;
      if (!n) break;
    }
    // Other partners' surplus goes too (the rule is for everyone): count only these two.
    const left = await db
      .select()
      .from(apiRequests)
      .where(inArray(apiRequests.partnerId, [a.partnerId, b.partnerId]));
    expect(
      left
        .filter((r) => r.partnerId === a.partnerId)
        .map((r) => r.commandText)
        .sort(),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `row ${i}`).sort());
    expect(left.filter((r) => r.partnerId === b.partnerId).map((r) => r.commandText)).toEqual(["row 0"]);
    expect(deleted).toBeGreaterThanOrEqual(4);
    expect(await pruneApiRequests(db, new Date(now), { keep: 10 })).toBe(0);

    // The job: runs at once, then not again until its interval has passed.
    await insertApiRequests(db, [row(b.partnerId, new Date(now - 30 * 86_400_000), 3)]);
    const [job] = apiLogJobs(db, { intervalMs: 60_000, keep: 10 });
    expect(await job!.run(new Date(now))).toBeGreaterThanOrEqual(1);
    await insertApiRequests(db, [row(b.partnerId, new Date(now - 30 * 86_400_000), 4)]);
    expect(await job!.run(new Date(now + 1_000))).toBe(0);
    expect(await job!.run(new Date(now + 61_000))).toBeGreaterThanOrEqual(1);
    expect((await rowsOf(b.partnerId)).map((r) => r.commandText)).toEqual(["row 0"]);
  });
});

describe("graceful shutdown", () => {
  test(`SIGTERM writes the rows still waiting in memory (${engine})`, async () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void> | void;
    let open: () => ReturnType<typeof openDatabase>;
    if (engine === "postgres") {
      const fresh = await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL!, "api_log_term");
      env = { DATABASE_URL: fresh.url };
      open = () => openDatabase({ url: fresh.url });
      cleanup = () => fresh.drop();
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "api-log-term-"));
      env = { DATA_DIR: dataDir };
      open = () => openDatabase({ dataDir });
      cleanup = () => rmSync(dataDir, { recursive: true, force: true });
    }
    try {
      let partner: NewPartner;
      {
        const handle = await open();
        partner = await createPartner(handle.db, { name: "Shutdown partner" });
        await handle.close();
      }
      const app = await startAppProcess({ ...env, RATE_LIMIT_MAX: "100000" });
      try {
        const envelope = {
          userInfo: { id: partner.partnerId, athrzt: partner.keys.test },
          cmmnd: { cmmnd: "dump ipck_vhcl-tprt-1111*PRMM", seed: { insrncDrtn: "1y" } },
        };
        const answers = await Promise.all(Array.from({ length: 20 }, () => app.post(envelope)));
        expect(answers.every((a: any) => a.exctnFdbck.id === 75)).toBe(true);
        process.kill(app.pid, "SIGTERM");
        expect(await Promise.race([app.exited, Bun.sleep(15_000).then(() => "still running")])).toBe(0);
      } finally {
        await app.stop();
      }
      const handle = await open();
      try {
        const rows = await handle.db
          .select()
          .from(apiRequests)
          .where(and(eq(apiRequests.partnerId, partner.partnerId), eq(apiRequests.outcome, 75)));
        expect(rows).toHaveLength(20);
      } finally {
        await handle.close();
      }
    } finally {
      await cleanup();
    }
  }, 60_000);
});
