/**
 * A busy port is an error (docs/decisions.md): Elysia asks Bun for SO_REUSEPORT, under which a
 * second server on the port would silently take half its connections. The second one stops, saying
 * why, and the first keeps every connection.
 */
import { afterAll, expect, test } from "bun:test";
import { startAppProcess } from "./support/webhook-receiver";

const first = await startAppProcess({ DATA_DIR: "memory://" });
afterAll(() => first.stop(), 15_000);

test("a second service on the same port exits 1 naming the port; the first answers every request", async () => {
  const port = new URL(first.url).port;
  const second = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: new URL("..", import.meta.url).pathname,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      LOG_LEVEL: "warn",
      NIID_START: "false",
      SEED_DEMO: "false",
      DATA_DIR: "memory://",
      PORT: port,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await second.exited).toBe(1);
  const said = (await new Response(second.stdout).text()) + (await new Response(second.stderr).text());
  expect(said).toContain("cannot listen: is another server already on this port? Stop it or set PORT");
  expect(said).toContain(`"port":${port}`);
  for (let i = 0; i < 20; i++) expect((await fetch(`${first.url}healthz`)).status).toBe(200);
}, 60_000);
