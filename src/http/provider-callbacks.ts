/**
 * A provider's signed callbacks (the payment provider of wallet fundings, the payout provider of
 * claims): POST <path> with the provider's name in it, outside the portal session (the signature
 * is the authentication). The raw body is read within a small cap and at a pace, and handed over
 * as bytes to be verified before it is parsed; the answer is quick (a provider retries on anything
 * but 2xx). An address that keeps sending forged, oversized or slow callbacks is refused before its
 * body is read or stored.
 */
import { Elysia } from "elysia";
import { CommandError } from "../core/errors";
import { log } from "../core/log";
import { countRefusal, type RateDecision, refusalKeys } from "../core/rate-limit";
import { bodyPace, readBoundedBytes, UnidentifiedBodiesAtCapacity } from "./body";
import { clientAddressOf } from "./client-address";
import type { AppDeps } from "./context";

/** A provider's callback is a small JSON document; anything larger is not one. */
const MAX_CALLBACK_BYTES = 64 * 1024;

function tooMany(set: { status?: number | string; headers: Record<string, string | number> }, decision: RateDecision) {
  set.status = 429;
  set.headers["retry-after"] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  return { status: "too many refused callbacks" };
}

interface CallbackProvider {
  name: string;
  signatureHeader: string;
}

export function providerCallbackRoute<P extends CallbackProvider>(
  deps: AppDeps,
  route: {
    name: string;
    /** With `:provider` where the provider's name goes. */
    path: string;
    providers: readonly P[];
    /** Verify and apply one callback: 401 for a bad signature (counted as a refusal of the address). */
    receive: (provider: P, body: Uint8Array, signature: string | null, now: Date) => Promise<{ status: 200 | 401; outcome: string }>;
  },
) {
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const pace = bodyPace(deps.config);
  return new Elysia({ name: route.name }).post(
    route.path,
    async ({ request, params, set, server }) => {
      const provider = route.providers.find((p) => p.name === (params as { provider?: string }).provider);
      if (!provider) {
        set.status = 404;
        return { status: "unknown provider" };
      }
      const addressKey = refusalKeys.address(clientAddress(request, server));
      const blocked = await deps.refusalLimiter.peek(addressKey);
      if (!blocked.allowed) return tooMany(set, blocked);
      let body: Uint8Array;
      try {
        body = await readBoundedBytes(request, { maxBytes: MAX_CALLBACK_BYTES, pace, unidentified: deps.capacity });
      } catch (error) {
        if (error instanceof UnidentifiedBodiesAtCapacity) {
          set.status = 503;
          return { status: "try again" };
        }
        if (!(error instanceof CommandError)) throw error;
        // Too large or too slow: not a callback of the provider's, and counted like a forged one.
        set.headers.connection = "close";
        const decision = await countRefusal(deps.refusalLimiter, [addressKey]);
        if (!decision.allowed) return tooMany(set, decision);
        set.status = error.status;
        return { status: "refused" };
      }
      try {
        const answer = await route.receive(provider, body, request.headers.get(provider.signatureHeader), (deps.now ?? (() => new Date()))());
        if (answer.status === 401) {
          const decision = await countRefusal(deps.refusalLimiter, [addressKey]);
          if (!decision.allowed) return tooMany(set, decision);
        }
        set.status = answer.status;
        return { status: answer.outcome };
      } catch (error) {
        // The provider tries again later: nothing was half-written (one transaction).
        log.error("provider callback failed", { route: route.name, provider: provider.name, error: String(error) });
        set.status = 503;
        return { status: "try again" };
      }
    },
    { parse: "none" },
  );
}
