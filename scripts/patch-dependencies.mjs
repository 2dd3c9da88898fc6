/**
 * postinstall: fixes to installed dependencies that no option of theirs can make, applied to every
 * copy of the file (ESM, CommonJS, Cloudflare builds). Idempotent, edit by edit; fails the install when the
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
 * 4. `closed(hadError)` fails the queries in flight only when the close had no error, counting on
 *    the socket's 'error' event for the rest; under Bun a reset socket may close with `hadError`
 *    and no 'error' event. Those queries then stayed on the connection: the next connection's
 *    first ReadyForQuery resolved one with an empty result (a genuine key read as unknown: 401),
 *    and the rest waited for answers the old socket would never bring, hanging their callers and
 *    the connection for good. Fail them with CONNECTION_CLOSED at every close, and clear what the
 *    old socket left half read (its query, error, result and row count: a count left at k made the
 *    next session's first query store its rows from index k, so `const [row] = rows` found none).
 * 5. The same row count outlives a query that fails after some of its rows arrived (a division by
 *    zero in row 3, a statement timeout while rows stream): the connection's next query is answered
 *    `[ , , row]`. Reset the count with the rest of the query's state at ReadyForQuery.
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
        find: "    if (initial)\n      return reconnect()\n\n    !hadError && (query || sent.length)",
        replace:
          `    query && queryError(query, Errors.connection('CONNECTION_CLOSED', options, socket)) ${MARKER}\n` +
          "    while (sent.length)\n      queryError(sent.shift(), Errors.connection('CONNECTION_CLOSED', options, socket))\n" +
          "    query = results = errorResponse = null\n    result = new Result()\n    rows = 0\n\n" +
          "    if (initial)\n      return reconnect()\n\n    !hadError && (query || sent.length)",
      },
      {
        find: "    query = results = errorResponse = null\n    result = new Result()\n    connectTimer.cancel()\n",
        add: `    rows = 0 ${MARKER}\n`,
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
    for (const { find, add, replace } of edits) {
      // Each edit once: an install made before an edit was added gets just the new one.
      if (text.includes(replace ?? find + add)) continue;
      if (text.split(find).length !== 2) {
        console.error(`patch-dependencies: ${file} does not contain the expected code once; see scripts/patch-dependencies.mjs`);
        process.exit(1);
      }
      text = text.replace(find, replace ?? find + add);
    }
    writeFileSync(file, text);
  }
}
