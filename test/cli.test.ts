import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engine, testApp } from "./support/harness";
import { startAppProcess } from "./support/webhook-receiver";

const root = new URL("..", import.meta.url).pathname;

/** Run the operator CLI as a real process: `npm run cli -- …` as the README says. */
async function cli(args: string[], env: Record<string, string | undefined>) {
  const child = Bun.spawn(["npm", "run", "cli", "--", ...args], { cwd: root, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  return { stdout, stderr, code: child.exitCode };
}

const dataDir = mkdtempSync(join(tmpdir(), "cli-pglite-"));
// The CLI talks to the same engine the suite is testing.
const env =
  engine === "postgres" ? { DATABASE_URL: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL } : { DATABASE_URL: undefined, DATA_DIR: dataDir };
const t = await testApp();

describe("npm run cli -- partner create", () => {
  test("prints exactly one JSON object with keys of every label and a portal login, usable on POST /", async () => {
    const { stdout, code } = await cli(["partner", "create", "--name", "Acme Ltd", "--enrichment"], env);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const partner = JSON.parse(stdout);
    // Bun's toMatchObject writes asymmetric matchers into the received object: assert on a copy.
    expect(structuredClone(partner)).toMatchObject({ partnerId: expect.any(String), name: "Acme Ltd", admin: false, enrichment: true });
    for (const label of ["test", "live", "legacy"]) {
      expect(partner.keys[label].id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Buffer.from(partner.keys[label].key, "base64")).toHaveLength(32);
    }
    expect(partner.portal).toEqual({ email: expect.stringContaining("@"), password: expect.any(String) });

    if (engine === "postgres") {
      const answer = await t.post({ userInfo: { id: partner.partnerId, athrzt: partner.keys.live }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } });
      expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
    }
  }, 60_000);

  test("--admin makes the operator's account; partner list shows both without secrets", async () => {
    const admin = JSON.parse((await cli(["partner", "create", "--name", "Operator", "--admin"], env)).stdout);
    expect(admin.admin).toBe(true);
    const { stdout } = await cli(["partner", "list"], env);
    const listed = JSON.parse(stdout).partners;
    const entry = listed.find((p: any) => p.partnerId === admin.partnerId);
    expect(entry).toMatchObject({ name: "Operator", admin: true, mode: "test" });
    expect(entry.keys.map((k: any) => k.label).sort()).toEqual(["legacy", "live", "test"]);
    expect(stdout).not.toContain(admin.keys.test.key);
  }, 60_000);

  test("key rotate issues a new key and the old one stops working; key revoke revokes", async () => {
    const created = JSON.parse((await cli(["partner", "create", "--name", "Rotator"], env)).stdout);
    const rotated = JSON.parse((await cli(["key", "rotate", "--partner", created.partnerId, "--label", "test"], env)).stdout);
    expect(structuredClone(rotated)).toMatchObject({ partnerId: created.partnerId, label: "test", id: expect.any(String), key: expect.any(String) });
    expect(rotated.id).not.toBe(created.keys.test.id);
    const revoked = JSON.parse((await cli(["key", "revoke", "--key", created.keys.live.id], env)).stdout);
    expect(revoked.revoked).toMatchObject({ id: created.keys.live.id, label: "live" });
    if (engine === "postgres") {
      const old = await t.post({ userInfo: { id: created.partnerId, athrzt: created.keys.test }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } });
      expect(old.exctnFdbck.elbrtn).toContain("revoked");
      const fresh = await t.post({ userInfo: { id: created.partnerId, athrzt: { id: rotated.id, key: rotated.key } }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } });
      expect(fresh.exctnFdbck.id).toBe(75);
    }
  }, 60_000);

  test("partner enrichment switches activation; usage statement prints a partner's month", async () => {
    const created = JSON.parse((await cli(["partner", "create", "--name", "Lender"], env)).stdout);
    const on = JSON.parse((await cli(["partner", "enrichment", "--partner", created.partnerId, "--on"], env)).stdout);
    expect(on).toEqual({ partnerId: created.partnerId, enrichment: true });
    const statement = JSON.parse((await cli(["usage", "statement", "--partner", created.partnerId, "--month", "2026-01"], env)).stdout);
    expect(statement).toEqual({ partnerId: created.partnerId, month: "2026-01", lines: [], totalKobo: 0 });
    const badMonth = await cli(["usage", "statement", "--partner", created.partnerId, "--month", "2026-13"], env);
    expect(badMonth.code).toBe(2);
    expect(badMonth.stderr).toContain("month must be a month as YYYY-MM");
  }, 60_000);

  test("wallet statement prints a partner's monthly statement, found by id or name, as JSON or CSV", async () => {
    const name = `Statement ${crypto.randomUUID().slice(0, 8)}`;
    const created = JSON.parse((await cli(["partner", "create", "--name", name], env)).stdout);
    const byName = await cli(["wallet", "statement", "--partner", name.toUpperCase(), "--month", "2026-01"], env);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout)).toMatchObject({
      partnerId: created.partnerId,
      month: "2026-01",
      openingBalance: 0,
      closingBalance: 0,
      netDue: 0,
      products: [],
    });
    const csv = await cli(["wallet", "statement", "--partner", created.partnerId, "--month", "2026-01", "--csv"], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toStartWith(`Statement,${name},2026-01-01 to 2026-01-31`);
    expect(csv.stdout).toContain("Net due,Net due,0\r\n");
    const future = await cli(["wallet", "statement", "--partner", created.partnerId, "--month", "2099-12"], env);
    expect(future.code).toBe(2);
    expect(future.stderr).toContain("--month 2099-12 is in the future");
    const unknown = await cli(["wallet", "statement", "--partner", "Nobody at all"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no partner is named Nobody at all");
  }, 60_000);

  test.skipIf(engine === "postgres")(
    "while the server runs on the embedded database, the CLI's commands are carried out by the server",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "cli-live-"));
      const server = await startAppProcess({ DATA_DIR: dir });
      try {
        const created = await cli(["partner", "create", "--name", "Running Ltd"], { DATABASE_URL: undefined, DATA_DIR: dir });
        expect(created.code).toBe(0);
        const partner = JSON.parse(created.stdout);
        const answer = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ userInfo: { id: partner.partnerId, athrzt: partner.keys.test }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } }),
        }).then((r) => r.json());
        expect(answer.exctnFdbck).toEqual({ id: 75, id_v4: 200 });
        const refused = await cli(["key", "rotate", "--partner", partner.partnerId, "--label", "prod"], { DATABASE_URL: undefined, DATA_DIR: dir });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain("--label must be test, live or legacy");
      } finally {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  test.skipIf(engine === "postgres")(
    "refuses the embedded database while another process holds it",
    async () => {
      const server = Bun.spawn(
        [
          "./node_modules/.bin/bun",
          "-e",
          `
      const { openDatabase } = await import("./src/db/client.ts");
      await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
      console.log("open");
      await Bun.sleep(30000);`,
        ],
        { cwd: root, stdout: "pipe" },
      );
      const reader = server.stdout.getReader();
      await reader.read(); // "open": the other process holds the database
      const refused = await cli(["partner", "list"], env);
      server.kill();
      await server.exited;
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain(`is in use by process ${server.pid}`);
      const after = await cli(["partner", "list"], env); // a dead owner's lock is taken over
      expect(after.code).toBe(0);
    },
    60_000,
  );

  test("mistakes are reported on stderr with a non-zero exit and nothing on stdout", async () => {
    const missing = await cli(["partner", "create"], env);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain("--name");
    const badLabel = await cli(["key", "rotate", "--partner", crypto.randomUUID(), "--label", "prod"], env);
    expect(badLabel.code).toBe(2);
    expect(badLabel.stderr).toContain("--label must be test, live or legacy");
    const unknownPartner = await cli(["key", "rotate", "--partner", crypto.randomUUID(), "--label", "test"], env);
    expect(unknownPartner.code).toBe(2);
    expect(unknownPartner.stderr).toContain("no partner");
  }, 60_000);
});

process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
