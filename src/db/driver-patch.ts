import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readPatch, unappliedHunks } from "../../scripts/apply-patch.mjs";

/** postgres.js's fixes (patches/README.md), applied at postinstall by scripts/patch-dependencies.mjs. */
const PATCH = fileURLToPath(new URL("../../patches/postgres@3.4.9.patch", import.meta.url));

/** The postgres.js package this module's import of `postgres` loads: Bun resolves it to <package>/src/index.js (its "bun" export). */
export const loadedDriver = fileURLToPath(new URL("..", import.meta.resolve("postgres")));

/**
 * Throws, naming the file, the likely cause and the remedy, unless every hunk of the patch is in
 * `driver`: an install with --ignore-scripts (usual in container builds) ships postgres.js without
 * them, and nothing else would tell until a lost connection hung or crashed the service.
 */
export function assertDriverPatched(driver = loadedDriver): void {
  for (const { file, hunks } of readPatch(PATCH)) {
    const path = join(driver, file);
    const missing = existsSync(path) ? unappliedHunks(readFileSync(path, "utf8"), hunks).length : hunks.length;
    if (missing > 0)
      throw new Error(
        `postgres.js is not patched: ${path} lacks ${missing} of the ${hunks.length} fixes of patches/postgres@3.4.9.patch, without which a lost database connection can hang or crash the service (docs/reliability.md). ` +
          "The install skipped the project's postinstall script (npm install or npm ci --ignore-scripts?). " +
          "Run `node scripts/patch-dependencies.mjs` (or `npm rebuild`, which runs every install script skipped), then start again.",
      );
  }
}
