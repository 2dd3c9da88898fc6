/**
 * postinstall: applies each patches/<package>@<version>.patch to node_modules/<package>, for fixes to
 * installed dependencies that no option of theirs can make (patches/README.md: what each fixes, and
 * its upstream issues). Idempotent hunk by hunk (scripts/apply-patch.mjs). Fails the install when the
 * installed version is not the patch's or a hunk's lines are not found: a new version, so check
 * whether the fixes are still needed, then update or drop the patch. Plain Node, so it runs under any
 * `npm install`. The service refuses to start on an unpatched postgres.js (src/db/driver-patch.ts).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyHunks, readPatch } from "./apply-patch.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const patchesDir = join(root, "patches");

try {
  for (const patchName of readdirSync(patchesDir).filter((name) => name.endsWith(".patch"))) {
    const [, name, version] = /^(.+)@([^@]+)\.patch$/.exec(patchName) ?? [];
    if (!name) throw new Error(`patches/${patchName} is not named <package>@<version>.patch`);
    const packageDir = join(root, "node_modules", name);
    const manifest = join(packageDir, "package.json");
    const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : "nothing";
    if (installed !== version) throw new Error(`patches/${patchName} is for ${name} ${version}, but node_modules has ${installed}`);
    for (const { file, hunks } of readPatch(join(patchesDir, patchName))) {
      const path = join(packageDir, file);
      const text = readFileSync(path, "utf8");
      const patched = applyHunks(text, hunks, path);
      if (patched !== text) writeFileSync(path, patched);
    }
  }
} catch (error) {
  console.error(`patch-dependencies: ${error.message}; see patches/README.md`);
  process.exit(1);
}
