import { Elysia } from "elysia";
import { type Envelope, parseEnvelope, refuseShape, senderIn } from "../core/envelope";
import { CommandError } from "../core/errors";
import { atCapacity, type CommandResponse, failure, success } from "../core/feedback";
import { jsonLimits } from "../core/json-shape";
import { log } from "../core/log";
import type { Principal } from "../core/principal";
import { countRefusal, type RateDecision, refusalKeys } from "../core/rate-limit";
import { isTransientDatabaseError } from "../db/errors";
import { bodyPace, IDENTIFY_WITHIN_BYTES, IncomingBody, UnidentifiedBodiesAtCapacity } from "../http/body";
import { clientAddressOf } from "../http/client-address";
import { type AppDeps, requestContext } from "../http/context";
import { apiLogFor } from "../modules/api-log/buffer";
import { authenticate } from "../modules/partners/service";
import { commandRegistry } from "./commands";
import { answerLostConnection } from "./unknown-outcome";

/**
 * POST / — the single command endpoint (spec 4.1). Parses the envelope, authenticates,
 * rate-limits and dispatches through the registry; every outcome is HTTP 200 + exctnFdbck.
 */
export const commandEndpoint = (deps: AppDeps) => {
  const now = deps.now ?? (() => new Date());
  // The partner's API log (portal page "API log"): rows are buffered in memory and written in batches.
  const apiLog = apiLogFor(deps.database.db);

  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const bodyLimits = jsonLimits(deps.config.MAX_DOCUMENT_BYTES);
  const pace = bodyPace(deps.config);
  const { REFUSAL_LIMIT_MAX, REFUSAL_LIMIT_WINDOW_MS, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS } = deps.config;
  const rateLimited = (decision: RateDecision, rule: string) => {
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    return failure(429, `rate limit exceeded: ${rule}; retry after ${retryAfter} s`, { retryAfter });
  };
  const tooManyRefusals = (decision: RateDecision) =>
    rateLimited(
      decision,
      `at most ${REFUSAL_LIMIT_MAX} refused requests (unreadable, malformed or not authenticated) in any ${REFUSAL_LIMIT_WINDOW_MS / 1000} seconds ` +
        `from one address or for one partner id`,
    );

  /**
   * Body → envelope → principal, the work done before we know who is asking: bounded in bytes, time
   * and memory (docs/security.md, "What a request costs"). The body is read at BODY_MIN_BYTES_PER_SECOND
   * or faster, holding no command slot; a large one must name its sender in its first
   * IDENTIFY_WITHIN_BYTES, and is authenticated then, before the rest of it is read. Each refusal on
   * the way counts against the client address and, once the envelope names one, the claimed partner
   * id; past REFUSAL_LIMIT_MAX the refusal becomes a 429. A genuine key is never counted or refused here.
   */
  async function admit(request: Request, address: string, note: Note): Promise<{ envelope: Envelope; principal: Principal } | { refused: CommandResponse }> {
    let claimedPartnerId: string | undefined;
    const incoming = new IncomingBody(request, { maxBytes: deps.config.MAX_BODY_BYTES, pace, unidentified: deps.capacity });
    note.body = incoming;
    const authenticated = async (userInfo: Envelope["userInfo"]) => {
      claimedPartnerId = userInfo.id;
      const principal = await authenticate(deps.database.db, { partnerId: userInfo.id, keyId: userInfo.athrzt.id, key: userInfo.athrzt.key });
      incoming.identified();
      return principal;
    };
    try {
      let known = false;
      const body = await incoming.text(async (received) => {
        refuseShape(received, bodyLimits);
        if (known) return;
        await authenticated(senderIn(received, IDENTIFY_WITHIN_BYTES));
        known = true;
      });
      const envelope = parseEnvelope(body, bodyLimits);
      // The whole envelope's userInfo is the one that counts (a member named twice is read last-wins).
      return { envelope, principal: await authenticated(envelope.userInfo) };
    } catch (error) {
      if (error instanceof UnidentifiedBodiesAtCapacity) return { refused: atCapacity() };
      if (!(error instanceof CommandError)) throw error;
      const keys = [refusalKeys.address(address), ...(claimedPartnerId ? [refusalKeys.partner(claimedPartnerId)] : [])];
      const decision = await countRefusal(deps.refusalLimiter, keys);
      if (!decision.allowed) return { refused: tooManyRefusals(decision) };
      throw error;
    } finally {
      incoming.release();
    }
  }

  async function execute(request: Request, requestId: string, note: Note, address: string): Promise<CommandResponse> {
    // An address that has failed too often is refused before its body is read.
    const blocked = await deps.refusalLimiter.peek(refusalKeys.address(address));
    if (!blocked.allowed) return tooManyRefusals(blocked);
    const admitted = await admit(request, address, note);
    if ("refused" in admitted) return admitted.refused;
    const { envelope, principal } = admitted;
    note.principal = principal;
    note.envelope = envelope;
    // The slot is taken once the body has arrived and its sender is known; a 35 is not one of the partner's requests.
    if (!deps.capacity.tryEnter()) return atCapacity();
    try {
      const decision = await deps.rateLimiter.hit(principal.partnerId);
      if (!decision.allowed) return rateLimited(decision, `at most ${RATE_LIMIT_MAX} requests in any ${RATE_LIMIT_WINDOW_MS / 1000} seconds`);
      const commandString = envelope.cmmnd.cmmnd;
      const matched = commandRegistry.match(commandString);
      if (!matched) throw new CommandError(400, `unknown command '${commandString.slice(0, 100)}': see docs/commands.md for the command strings`);
      note.command = matched.definition.grammar;
      const result = await commandRegistry.run({ db: deps.database.db, config: deps.config, principal, requestId, now }, matched, envelope.cmmnd.seed);
      return success(result);
    } finally {
      deps.capacity.leave();
    }
  }

  return (
    new Elysia({ name: "command-endpoint" })
      .use(requestContext)
      .post(
        "/",
        async ({ request, requestId, startedAt, set, server }) => {
          set.headers["content-type"] = "application/json";
          set.headers["cache-control"] = "no-store";
          const note: Note = {};
          let response: CommandResponse;
          try {
            response = await execute(request, requestId, note, clientAddress(request, server));
          } catch (error) {
            if (error instanceof CommandError) response = failure(error.status, error.message);
            else if (isTransientDatabaseError(error)) {
              log.warn("command lost its database connection", { requestId, command: note.command, error });
              response = await answerLostConnection(deps, { requestId, principal: note.principal, envelope: note.envelope, now });
            } else {
              log.error("command failed", { requestId, command: note.command, error });
              response = failure(500, `internal error: the command was not completed (request id ${requestId})`);
            }
          }
          // Answered before its body arrived (refused, or too slow): the connection is closed rather than the rest read.
          if (!note.body?.complete) set.headers.connection = "close";
          const { exctnFdbck } = response;
          const elapsed = performance.now() - startedAt;
          // Refusals before the partner is known (capacity, body, JSON, credentials) belong to no partner's log.
          if (note.principal && note.envelope)
            apiLog.record({
              principal: note.principal,
              envelope: note.envelope,
              // A refusal before the command was looked up (429) still names what was asked for.
              command: note.command ?? commandRegistry.match(note.envelope.cmmnd.cmmnd)?.definition.grammar ?? null,
              requestId,
              response,
              durationMs: elapsed,
            });
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
      )
      // Any other method on the command endpoint (PUT, PATCH, DELETE …): 405 in the envelope, with
      // Allow. OPTIONS asks which methods there are: the same Allow, no body.
      .all(
        "/",
        ({ request, set }) => {
          set.headers.allow = ALLOWED_METHODS;
          if (request.method === "OPTIONS") {
            set.status = 204;
            return "";
          }
          set.status = 405;
          set.headers["content-type"] = "application/json";
          set.headers["cache-control"] = "no-store";
          return failure(405, `method not allowed: the command endpoint takes POST with the JSON envelope (allowed: ${ALLOWED_METHODS})`);
        },
        { parse: "none" },
      )
  );
};

/** What a request turned out to be, for its log line, the API log and the answer's headers. */
interface Note {
  command?: string;
  principal?: Principal;
  envelope?: Envelope;
  /** The body, as far as it was read. */
  body?: IncomingBody;
}

/** What `/` answers to: the landing page (GET, HEAD) and commands (POST). */
const ALLOWED_METHODS = "GET, HEAD, POST";
