/**
 * postinstall: fixes to installed dependencies that no option of theirs can make, applied to every
 * copy of the file (ESM, CommonJS, Cloudflare builds). Idempotent; fails the install when the
 * expected code is not there (a new version: check whether the fix is still needed, then update
 * or drop it here). Plain Node, so it runs under any `npm install`.
 *
 * postgres.js 3.4.9, src/connection.js — a connection dropped by the server (pg_terminate_backend,
 * a restart) breaks the pool for good (docs/reliability.md, "Lost database connections"):
 * 1. `closed()` clears the pending write timer but keeps its id and the unsent bytes, so `write()`
 *    never schedules a flush again on that connection: every reconnect sends nothing and waits for
 *    connect_timeout, forever. Reset both.
 * 2. After a drop, a transaction's ROLLBACK (and any query of a reserved connection) still reaches
 *    `execute()` of the closed connection: its flush then calls `socket.write` on null, an uncaught
 *    TypeError, and leaves the timer set (so 1. again). Refuse such a query with CONNECTION_CLOSED
 *    instead; `true` keeps the pool from moving the closed connection to its "full" queue.
 * 3. A connection dropped while it fetches the array types (right after connecting) rejects a
 *    promise nobody awaits: an unhandled rejection. Fail the query waiting for that connection
 *    instead, as any other failure of it does.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MARKER = "/* patched by scripts/patch-dependencies.mjs */";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const patches = [
  {
    files: ["src/connection.js", "cjs/src/connection.js", "cf/src/connection.js"].map((file) => join(root, "node_modules/postgres", file)),
    edits: [
      {
        find: "    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n",
        add: `    if (!socket) ${MARKER}\n      return queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true\n`,
      },
      {
        find: "    incomings = null\n    clearImmediate(nextWriteTimer)\n",
        add: `    chunk = nextWriteTimer = null ${MARKER}\n`,
      },
      {
        find: "        return fetchArrayTypes()\n",
        replace: `        return fetchArrayTypes().catch(errored) ${MARKER}\n`,
      },
    ],
  },
];

for (const { files, edits } of patches) {
  for (const file of files) {
    if (!existsSync(file)) continue;
    let text = readFileSync(file, "utf8");
    if (text.includes(MARKER)) continue;
    for (const { find, add, replace } of edits) {
      if (text.split(find).length !== 2) {
        console.error(`patch-dependencies: ${file} does not contain the expected code once; see scripts/patch-dependencies.mjs`);
        process.exit(1);
      }
      text = text.replace(find, replace ?? find + add);
    }
    writeFileSync(file, text);
  }
}
