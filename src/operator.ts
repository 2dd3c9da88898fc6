/**
 * The operator's commands (partners, keys, usage statements), shared by the command line and, on the
 * embedded database, the running server's operator socket — so the CLI works whether or not the
 * server holds the database.
 */
import { parseArgs } from "node:util";
import type { Config } from "./core/config";
import { CommandError } from "./core/errors";
import { normaliseUuid } from "./core/ids";
import type { Database } from "./db/client";
import { commandLineResetLink } from "./modules/accounts/password-reset";
import { statementMonth } from "./modules/commissions/model";
import { statementFile } from "./modules/commissions/pages";
import { partnerStatement } from "./modules/commissions/service";
import { wireStatement } from "./modules/commissions/wire";
import { currentWatMonth, usageStatement } from "./modules/enrichment/service";
import { createPartner, KEY_LABELS, type KeyLabel, listPartners, partnerNames, revokeKey, rotateKey, setEnrichment } from "./modules/partners/service";

export const USAGE = `Operator command line. Every command prints one JSON object on stdout.

  partner create --name "Acme Ltd" [--admin] [--enrichment] [--email owner@acme.ng]
  partner list
  partner enrichment --partner <partner id> --on | --off
  key rotate --partner <partner id> --label test|live|legacy
  key revoke --key <authorization id>
  usage statement --partner <partner id> [--month YYYY-MM]   (enrichment usage and charges; default this month)
  wallet statement --partner <partner id or name> [--month YYYY-MM] [--csv]
                                                              (the monthly statement, docs/commissions.md; --csv prints CSV)
  reset-link <email>                                          (a link to choose a new password, e.g. for the first owner;
                                                              valid PASSWORD_RESET_TTL_MINUTES, once; older links stop working)

Uses DATABASE_URL when set, else the embedded database in DATA_DIR (./data); while the server runs on
the embedded database, the command is carried out by the server itself (its operator socket).`;

export class UsageError extends Error {}

function uuidOption(value: string | undefined, name: string): string {
  const id = normaliseUuid(value);
  if (!id) throw new UsageError(`--${name} must be a UUID`);
  return id;
}

export async function runOperatorCommand(db: Database, argv: string[], config: Config): Promise<unknown> {
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
      csv: { type: "boolean", default: false },
    },
  });
  const [noun, verb] = positionals;
  if (noun === "reset-link") {
    if (!verb || positionals.length > 2) throw new UsageError("reset-link needs the user's e-mail, and nothing more: reset-link owner@partner.ng");
    return commandLineResetLink(db, verb, config, new Date());
  }
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
    case "wallet statement":
      return walletStatement(db, values.partner, values.month, values.csv);
    default:
      throw new UsageError(`unknown command: ${positionals.join(" ") || "(none)"}`);
  }
}

/** The monthly statement of a partner named by id or by its exact name (any case): the JSON command's answer, or the portal's CSV. */
async function walletStatement(db: Database, partner: string | undefined, month: string | undefined, csv: boolean): Promise<unknown> {
  if (!partner?.trim()) throw new UsageError("wallet statement needs --partner <partner id or name>");
  const byName = [...(await partnerNames(db))].filter(([, name]) => name.toLowerCase() === partner.trim().toLowerCase());
  const partnerId = normaliseUuid(partner) ?? (byName.length === 1 ? byName[0]![0] : null);
  if (!partnerId)
    throw new CommandError(
      byName.length ? 409 : 404,
      byName.length ? `${byName.length} partners are named ${partner}: give the partner id` : `no partner is named ${partner}`,
    );
  const now = new Date();
  const statement = await partnerStatement(db, partnerId, month === undefined ? currentWatMonth(now) : statementMonth(month, now, "--month"));
  if (!csv) return { partnerId, ...wireStatement(statement) };
  return new TextDecoder().decode((await statementFile(statement, "csv", now)).bytes).replace(/^\uFEFF/, "");
}

/** A refusal the operator can act on (usage, a domain refusal, a malformed option), as opposed to a fault. */
export const isOperatorMistake = (error: unknown) =>
  error instanceof UsageError || error instanceof CommandError || !!(error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");

/** Where a server on the embedded database listens for operator commands: a Unix socket only its user may open. */
export const operatorSocket = (dataDir: string) => `${dataDir.replace(/\/$/, "")}/operator.sock`;
