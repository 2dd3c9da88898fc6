import { existsSync } from "node:fs";
import { loadConfig } from "./core/config";
import { setLogLevel } from "./core/log";
import { openDatabase } from "./db/client";
import { joinCacheNetwork } from "./db/shared-cache";
import { isOperatorMistake, operatorSocket, runOperatorCommand, USAGE, UsageError } from "./operator";

/** Written and flushed: the process exits right after, and a pipe would otherwise lose the end of a long answer. */
const written = (stream: NodeJS.WriteStream, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));

/** One JSON line on stdout for a result (text, such as a CSV, as it is), on stderr for a refusal; the exit code says which. */
async function report(outcome: { result: unknown } | { error: string; mistake: boolean; usage?: boolean; stack?: string }): Promise<number> {
  if ("result" in outcome) {
    await written(process.stdout, typeof outcome.result === "string" ? outcome.result : `${JSON.stringify(outcome.result)}\n`);
    return 0;
  }
  await written(
    process.stderr,
    `${JSON.stringify({ error: outcome.error })}\n${outcome.usage ? `${USAGE}\n` : ""}${outcome.stack ? `${outcome.stack}\n` : ""}`,
  );
  return outcome.mistake ? 2 : 1;
}

/** The server holds the embedded database: ask it to carry the command out. */
async function viaServer(socket: string, argv: string[]): Promise<number> {
  const response = await fetch("http://operator/", { method: "POST", body: JSON.stringify({ argv }), unix: socket });
  return await report(await response.json());
}

const config = loadConfig();
setLogLevel("silent");
const argv = process.argv.slice(2);
let exitCode = 0;
if (argv.length === 0 || argv.includes("--help")) {
  process.stderr.write(`${USAGE}\n`);
  exitCode = argv.length === 0 ? 2 : 0;
} else {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, connection: config }).catch((error: Error) => error);
  if (database instanceof Error) {
    const socket = operatorSocket(config.DATA_DIR);
    if (!config.DATABASE_URL && /in use by process/.test(database.message) && existsSync(socket)) exitCode = await viaServer(socket, argv);
    else {
      process.stderr.write(`${JSON.stringify({ error: `cannot open the database: ${database.message}` })}\n`);
      exitCode = 1;
    }
  } else {
    try {
      // Running servers must see a key change before this command reports it done (SharedCache.settle).
      await joinCacheNetwork(database, "client");
      exitCode = await report({ result: await runOperatorCommand(database.db, argv, config) });
    } catch (error) {
      const mistake = isOperatorMistake(error);
      exitCode = await report({
        error: (error as Error).message,
        mistake,
        usage: error instanceof UsageError,
        stack: mistake ? undefined : String((error as Error).stack),
      });
    } finally {
      await database.close();
    }
  }
}
process.exit(exitCode);
