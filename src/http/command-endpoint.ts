import { Elysia } from "elysia";
import { commandRegistry } from "../commands";
import { parseEnvelope, type Envelope } from "../core/envelope";
import { CommandError } from "../core/errors";
import { atCapacity, failure, success, type CommandResponse } from "../core/feedback";
import { log } from "../core/log";
import type { Principal } from "../core/principal";
import { apiLogFor } from "../modules/api-log/buffer";
import { authenticate } from "../modules/partners/service";
import { readBoundedBody } from "./body";
import { requestContext, type AppDeps } from "./context";

/**
 * POST / — the single command endpoint (spec 4.1). Parses the envelope, authenticates,
 * rate-limits and dispatches through the registry; every outcome is HTTP 200 + exctnFdbck.
 */
export const commandEndpoint = (deps: AppDeps) => {
  const now = deps.now ?? (() => new Date());
  // The partner's API log (portal page "API log"): rows are buffered in memory and written in batches.
  const apiLog = apiLogFor(deps.database.db);

  async function execute(request: Request, requestId: string, note: { command?: string; principal?: Principal; envelope?: Envelope }): Promise<CommandResponse> {
    const body = await readBoundedBody(request, deps.config.MAX_BODY_BYTES);
    const envelope = parseEnvelope(body);
    const principal = await authenticate(deps.database.db, {
      partnerId: envelope.userInfo.id,
      keyId: envelope.userInfo.athrzt.id,
      key: envelope.userInfo.athrzt.key,
    });
    note.principal = principal;
    note.envelope = envelope;
    const decision = await deps.rateLimiter.hit(principal.partnerId);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      return failure(
        429,
        `rate limit exceeded: at most ${deps.config.RATE_LIMIT_MAX} requests in any ${deps.config.RATE_LIMIT_WINDOW_MS / 1000} seconds; retry after ${retryAfter} s`,
        { retryAfter },
      );
    }
    const commandString = envelope.cmmnd.cmmnd;
    const matched = commandRegistry.match(commandString);
    if (!matched) throw new CommandError(400, `unknown command '${commandString.slice(0, 100)}': see docs/commands.md for the command strings`);
    note.command = matched.definition.grammar;
    const result = await commandRegistry.run(
      { db: deps.database.db, config: deps.config, principal, requestId, now },
      matched,
      envelope.cmmnd.seed,
    );
    return success(result);
  }

  return new Elysia({ name: "command-endpoint" }).use(requestContext).post(
    "/",
    async ({ request, requestId, startedAt, set }) => {
      set.headers["content-type"] = "application/json";
      set.headers["cache-control"] = "no-store";
      const note: { command?: string; principal?: Principal; envelope?: Envelope } = {};
      let response: CommandResponse;
      if (!deps.capacity.tryEnter()) {
        response = atCapacity();
      } else {
        try {
          response = await execute(request, requestId, note);
        } catch (error) {
          if (error instanceof CommandError) response = failure(error.status, error.message);
          else {
            log.error("command failed", { requestId, command: note.command, error });
            response = failure(500, `internal error: the command was not completed (request id ${requestId})`);
          }
        } finally {
          deps.capacity.leave();
        }
      }
      const { exctnFdbck } = response;
      const elapsed = performance.now() - startedAt;
      // Refusals before the partner is known (capacity, body, JSON, credentials) belong to no partner's log.
      if (note.principal && note.envelope)
        apiLog.record({ principal: note.principal, envelope: note.envelope, command: note.command ?? null, requestId, response, durationMs: elapsed });
      log.info("command", {
        requestId,
        command: note.command,
        partnerId: note.principal?.partnerId,
        mode: note.principal?.mode,
        outcome: exctnFdbck.id,
        status: exctnFdbck.id_v4,
        ms: Math.round(elapsed),
      });
      return response;
    },
    { parse: "none" },
  );
};
