/**
 * `npm start` and the benches tune the runtime's memory allocator (`scripts/with-allocator.sh`; docs/operations.md,
 * "The runtime's memory allocator"): the settings must be ones this runtime reads, or a Bun upgrade that renames one
 * would silently bring back the cost they remove.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { allocatorEnv } from "../bench/servers";
import { root } from "./client/support";

test("the allocator settings are read by the runtime, with the values given", () => {
  const settings = allocatorEnv();
  expect(Object.keys(settings).sort()).toEqual(["MIMALLOC_PURGE_DELAY", "MIMALLOC_PURGE_HOLES"]);
  const run = Bun.spawnSync([process.execPath, "-e", ""], { env: { ...process.env, ...settings, MIMALLOC_VERBOSE: "1" }, stderr: "pipe" });
  const shown = run.stderr.toString();
  for (const [name, value] of Object.entries(settings)) expect(shown).toContain(`option '${name.slice("MIMALLOC_".length).toLowerCase()}': ${value} `);
});

test("npm start and every bench run through the script, which leaves a setting of the environment alone", () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).scripts;
  for (const name of ["start", ...Object.keys(scripts).filter((n) => n.startsWith("bench"))])
    expect(scripts[name]).toStartWith("sh scripts/with-allocator.sh bun ");
  const run = Bun.spawnSync(["sh", "scripts/with-allocator.sh", "sh", "-c", 'echo "$MIMALLOC_PURGE_DELAY $MIMALLOC_PURGE_HOLES"'], {
    cwd: root,
    env: { PATH: process.env.PATH, MIMALLOC_PURGE_DELAY: "250" },
    stdout: "pipe",
  });
  expect(run.stdout.toString().trim()).toBe(`250 ${allocatorEnv().MIMALLOC_PURGE_HOLES}`);
});
