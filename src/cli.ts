import { parseArgs } from "node:util";
import { loadConfig } from "./config";
import { CommandError } from "./core/errors";
import { normaliseUuid } from "./core/ids";
import { setLogLevel } from "./core/log";
import { openDatabase, type Database } from "./db/client";
import { currentWatMonth, usageStatement } from "./modules/enrichment/service";
import { joinCacheNetwork } from "./db/shared-cache";
import { createPartner, KEY_LABELS, listPartners, revokeKey, rotateKey, setEnrichment, type KeyLabel } from "./modules/partners/service";

const USAGE = `Operator command line. Every command prints one JSON object on stdout.

  partner create --name "Acme Ltd" [--admin] [--enrichment] [--email owner@acme.ng]
  partner list
  partner enrichment --partner <partner id> --on | --off
  key rotate --partner <partner id> --label test|live|legacy
  key revoke --key <authorization id>
  usage statement --partner <partner id> [--month YYYY-MM]   (enrichment usage and charges; default this month)

Uses DATABASE_URL when set, else the embedded database in DATA_DIR (./data): stop the server first.`;

class UsageError extends Error {}

function uuidOption(value: string | undefined, name: string): string {
  const id = normaliseUuid(value);
  if (!id) throw new UsageError(`--${name} must be a UUID`);
  return id;
}

async function run(db: Database, argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      admin: { type: "boolean", default: false },
      enrichment: { type: "boolean", default: false },
      partner: { type: "string" },
      label: { type: "string" },
      key: { type: "string" },
      on: { type: "boolean", default: false },
      month: { type: "string" },
      off: { type: "boolean", default: false },
    },
  });
  const [noun, verb] = positionals;
  switch (`${noun} ${verb}`) {
    case "partner create":
      if (!values.name?.trim()) throw new UsageError('partner create needs --name "Partner name"');
      return createPartner(db, { name: values.name, admin: values.admin, enrichment: values.enrichment, email: values.email });
    case "partner list":
      return { partners: await listPartners(db) };
    case "partner enrichment": {
      if (values.on === values.off) throw new UsageError("partner enrichment needs exactly one of --on or --off");
      const partnerId = uuidOption(values.partner, "partner");
      await setEnrichment(db, partnerId, values.on);
      return { partnerId, enrichment: values.on };
    }
    case "key rotate": {
      const label = values.label as KeyLabel;
      if (!KEY_LABELS.includes(label)) throw new UsageError("--label must be test, live or legacy");
      const partnerId = uuidOption(values.partner, "partner");
      return { partnerId, label, ...(await rotateKey(db, partnerId, label)) };
    }
    case "key revoke":
      return { revoked: await revokeKey(db, uuidOption(values.key, "key")) };
    case "usage statement":
      return usageStatement(db, uuidOption(values.partner, "partner"), values.month ?? currentWatMonth(new Date()));
    default:
      throw new UsageError(`unknown command: ${positionals.join(" ") || "(none)"}`);
  }
}

const config = loadConfig();
setLogLevel("silent");
let exitCode = 0;
if (process.argv.length <= 2 || process.argv.includes("--help")) {
  process.stderr.write(USAGE + "\n");
  exitCode = process.argv.length <= 2 ? 2 : 0;
} else {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }).catch((error: Error) => {
    process.stderr.write(
      JSON.stringify({ error: `cannot open the database: ${error.message}${config.DATABASE_URL ? "" : " (is the server running on the embedded database? stop it first)"}` }) + "\n",
    );
    process.exit(1);
  });
  try {
    // Running servers must see a key change before this command reports it done (SharedCache.settle).
    await joinCacheNetwork(database, "client");
    process.stdout.write(JSON.stringify(await run(database.db, process.argv.slice(2))) + "\n");
  } catch (error) {
    const known = error instanceof UsageError || error instanceof CommandError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(JSON.stringify({ error: (error as Error).message }) + "\n" + (error instanceof UsageError ? USAGE + "\n" : ""));
    if (!known) process.stderr.write(String((error as Error).stack) + "\n");
    exitCode = known ? 2 : 1;
  } finally {
    await database.close();
  }
}
process.exit(exitCode);
