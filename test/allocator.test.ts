/**
 * `npm start` tunes the runtime's memory allocator (docs/operations.md, "Memory allocator"): the settings must be
 * ones this runtime reads, or a Bun upgrade that renames one would silently bring back the cost they remove.
 */
import { expect, test } from "bun:test";
import { allocatorEnv } from "../bench/servers";

test("the allocator settings npm start gives are read by the runtime, with the values given", () => {
  const settings = allocatorEnv();
  expect(Object.keys(settings).sort()).toEqual(["MIMALLOC_PURGE_DELAY", "MIMALLOC_PURGE_HOLES"]);
  const run = Bun.spawnSync([process.execPath, "-e", ""], { env: { ...process.env, ...settings, MIMALLOC_VERBOSE: "1" }, stderr: "pipe" });
  const shown = run.stderr.toString();
  for (const [name, value] of Object.entries(settings)) expect(shown).toContain(`option '${name.slice("MIMALLOC_".length).toLowerCase()}': ${value} `);
});
