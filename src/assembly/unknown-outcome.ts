import { beforeDeadline } from "../core/deadline";
import type { Envelope } from "../core/envelope";
import { CommandError } from "../core/errors";
import { type CommandResponse, databaseLost, failure, success } from "../core/feedback";
import { log } from "../core/log";
import type { Principal } from "../core/principal";
import type { DatabaseHandle } from "../db/client";
import type { AppDeps } from "../http/context";
import { commandRegistry } from "./commands";

/** How often the database is asked whether it answers again while an outcome is being found out. */
const POLL_MS = 250;

/**
 * The answer to a command whose database connection was lost (docs/reliability.md, "Unknown
 * outcomes"). A lost connection says nothing about whether a commit took effect, so a command with
 * a reference is looked up once the database answers again: 75 with what is stored, or 35 "not
 * stored"; 35 "outcome unknown" when the database stays away. Never a 55: nothing here is the
 * partner's mistake. The whole of it takes at most OUTCOME_WAIT_MS.
 */
export async function answerLostConnection(
  deps: Pick<AppDeps, "database" | "config">,
  request: { requestId: string; principal?: Principal; envelope?: Envelope; now: () => Date },
): Promise<CommandResponse> {
  const { requestId, principal, envelope } = request;
  const matched = principal && envelope ? commandRegistry.match(envelope.cmmnd.cmmnd) : null;
  // Reads and commands without a reference: a repeat is the remedy.
  if (!principal || !envelope || !matched?.definition.recover) return databaseLost("not answered", requestId);
  const deadline = Date.now() + deps.config.OUTCOME_WAIT_MS;
  try {
    if (!(await databaseAnswers(deps.database, deadline))) return databaseLost("unknown", requestId);
    const context = { db: deps.database.db, config: deps.config, principal, requestId, now: request.now };
    const recovery = await beforeDeadline(commandRegistry.recover(context, matched, envelope.cmmnd.seed), deadline);
    if (recovery?.outcome === "stored") return success(recovery.answer);
    if (recovery?.outcome === "absent") return databaseLost("not stored", requestId);
    return databaseLost("unknown", requestId);
  } catch (error) {
    // The refusal a repeat of this request gets (its reference holds something else).
    if (error instanceof CommandError) return failure(error.status, error.message);
    log.warn("command outcome unknown", { requestId, command: matched.definition.grammar, error });
    return databaseLost("unknown", requestId);
  }
}

/** Does the database answer (a cheap `select 1`) before `deadline`? */
async function databaseAnswers(database: DatabaseHandle, deadline: number): Promise<boolean> {
  for (;;) {
    if (await beforeDeadline(database.ping(), deadline)) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await Bun.sleep(Math.min(POLL_MS, left));
  }
}
