/**
 * postgres.js's patch (patches/postgres@3.4.9.patch): applied at install by
 * scripts/patch-dependencies.mjs, hunk by hunk and once, and required at start-up on PostgreSQL
 * (src/db/driver-patch.ts), so an install with --ignore-scripts cannot run unpatched unnoticed.
 * The unpatched copies are the installed files with every hunk undone, checked byte for byte against
 * the published package. No database: the same on both engines.
 */
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyHunks, readPatch } from "../scripts/apply-patch.mjs";
import { assertDriverPatched, loadedDriver } from "../src/db/driver-patch";

const repository = fileURLToPath(new URL("..", import.meta.url));
const patch = readPatch(join(repository, "patches/postgres@3.4.9.patch"));
/** sha256 of the files in npm's postgres-3.4.9.tgz (package-lock.json's integrity sha512-GD3qdB0x…). */
const PUBLISHED: Record<string, string> = {
  "src/connection.js": "ee3a218d9aa6a6f2887c1a19da50009335fe84c11a5431d5cab72d6bc528632f",
  "cjs/src/connection.js": "ce6d375809baad79963ef9b3773e6ac757bcf6da2362d4d85482bb14c2c751be",
  "cf/src/connection.js": "3efad812b825f76708f2e62e8dd00088900206e04afed2dc4b75b9aecd435fa9",
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const installed = (file: string) => readFileSync(join(loadedDriver, file), "utf8");
const unpatched = (file: string, hunks: (typeof patch)[number]["hunks"]) =>
  hunks.reduce((text, hunk) => text.replace(hunk.after, () => hunk.before), installed(file));

const scratch = mkdtempSync(join(tmpdir(), "driver-patch-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the postgres.js package under `dir` with the patch's files as published (unpatched). */
function unpatchedPackage(dir: string): string {
  const packageDir = join(scratch, dir, "node_modules/postgres");
  mkdirSync(packageDir, { recursive: true });
  cpSync(join(loadedDriver, "package.json"), join(packageDir, "package.json"));
  for (const { file, hunks } of patch) {
    mkdirSync(dirname(join(packageDir, file)), { recursive: true });
    writeFileSync(join(packageDir, file), unpatched(file, hunks));
  }
  return packageDir;
}

test("the patch has five hunks, one per fix, in each of the three builds", () => {
  expect(patch.map(({ file, hunks }) => [file, hunks.map((hunk) => /fix \d/.exec(hunk.header)?.[0])])).toEqual(
    ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"].map((file) => [file, ["fix 2", "fix 1", "fix 4", "fix 5", "fix 3"]]),
  );
});

test("the installed postgres.js is the published one plus the patch, byte for byte; applying the patch again changes nothing", () => {
  for (const { file, hunks } of patch) {
    expect({ file, sha256: sha256(unpatched(file, hunks)) }).toEqual({ file, sha256: PUBLISHED[file]! });
    expect(sha256(applyHunks(unpatched(file, hunks), hunks, file))).toBe(sha256(installed(file)));
    expect(sha256(applyHunks(installed(file), hunks, file))).toBe(sha256(installed(file)));
  }
});

test("the start-up check passes the installed postgres.js and refuses an unpatched copy, naming the file, the cause and the remedy", () => {
  expect(() => assertDriverPatched()).not.toThrow();
  const packageDir = unpatchedPackage("check");
  expect(() => assertDriverPatched(packageDir)).toThrow(
    `postgres.js is not patched: ${join(packageDir, "src/connection.js")} lacks 5 of the 5 fixes of patches/postgres@3.4.9.patch`,
  );
  expect(() => assertDriverPatched(packageDir)).toThrow(/--ignore-scripts\?\). Run `node scripts\/patch-dependencies\.mjs`/);
  // One build patched, the others not: still refused, naming the first one without.
  writeFileSync(join(packageDir, "src/connection.js"), installed("src/connection.js"));
  expect(() => assertDriverPatched(packageDir)).toThrow(`${join(packageDir, "cjs/src/connection.js")} lacks 5 of the 5 fixes`);
});

test("postinstall patches an unpatched install as installed here, leaves a patched one untouched, and fails on code it does not know", () => {
  const packageDir = unpatchedPackage("install");
  const project = join(packageDir, "../..");
  cpSync(join(repository, "scripts"), join(project, "scripts"), { recursive: true });
  cpSync(join(repository, "patches"), join(project, "patches"), { recursive: true });
  const postinstall = () => Bun.spawnSync(["node", join(project, "scripts/patch-dependencies.mjs")], { stderr: "pipe" });

  expect(postinstall().exitCode).toBe(0);
  for (const { file } of patch) expect(sha256(readFileSync(join(packageDir, file), "utf8"))).toBe(sha256(installed(file)));
  expect(() => assertDriverPatched(packageDir)).not.toThrow();
  // A second install: nothing is written (the files keep the time set here).
  for (const { file } of patch) utimesSync(join(packageDir, file), 0, 0);
  expect(postinstall().exitCode).toBe(0);
  expect(patch.map(({ file }) => statSync(join(packageDir, file)).mtimeMs)).toEqual([0, 0, 0]);

  // An upgraded postgres.js: the install fails, naming the version, or the file and the fix whose code moved.
  const manifest = join(packageDir, "package.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"version": "3.4.9"', '"version": "3.4.10"'));
  expect(postinstall().stderr.toString()).toContain("patches/postgres@3.4.9.patch is for postgres 3.4.9, but node_modules has 3.4.10");
  cpSync(join(loadedDriver, "package.json"), manifest);
  const { hunks } = patch[0]!;
  writeFileSync(join(packageDir, "src/connection.js"), unpatched("src/connection.js", hunks).replace("    if (terminated)\n", "    if (this.terminated)\n"));
  const failed = postinstall();
  expect(failed.exitCode).toBe(1);
  expect(failed.stderr.toString()).toContain(`${join(packageDir, "src/connection.js")} does not contain the lines of ${hunks[0]!.header} exactly once`);
});
