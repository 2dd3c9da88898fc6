import { chmodSync, rmSync } from "node:fs";
import type { Config } from "./core/config";
import { log } from "./core/log";
import type { Database } from "./db/client";
import { isOperatorMistake, operatorSocket, runOperatorCommand, UsageError } from "./operator";

/**
 * The operator socket of a server on the embedded database: `npm run cli -- …` cannot open the
 * database while the server holds it, so it sends its arguments here and the server runs the same
 * operator command. A Unix socket in DATA_DIR readable by this user only: whoever may use it could
 * open the database files anyway.
 */
export function startOperatorSocket(db: Database, config: Config) {
  const path = operatorSocket(config.DATA_DIR);
  rmSync(path, { force: true }); // a socket left by a process that died
  const server = Bun.serve({
    unix: path,
    async fetch(request) {
      const { argv } = (await request.json().catch(() => ({}))) as { argv?: unknown };
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string"))
        return Response.json({ error: "send { argv: string[] }", mistake: true }, { status: 400 });
      try {
        return Response.json({ result: await runOperatorCommand(db, argv, config) });
      } catch (error) {
        const mistake = isOperatorMistake(error);
        if (!mistake) log.error("operator command failed", { error });
        return Response.json({ error: (error as Error).message, mistake, usage: error instanceof UsageError });
      }
    },
  });
  chmodSync(path, 0o600);
  return server;
}
