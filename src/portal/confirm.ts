/**
 * The server's half of a confirmation step (views/portal/confirm.tsx): an action that moves money
 * or cuts someone off runs only when its form carries the token of the confirmation that named it.
 * The token is a MAC, keyed by the session's CSRF token (itself a secret of that session), over the
 * action and what the confirmation said (the partner, the amount): a post without it, posted straight
 * to the action, or with a value changed since, is answered with the confirmation (again) instead.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The form field that carries the token. */
export const CONFIRMED_FIELD = "confirmed";

/** The confirmation of one action on one subject for these words, in one session. */
export function confirmation(csrf: string, action: string, ...named: readonly (string | number)[]) {
  const token = createHmac("sha256", csrf)
    .update([action, ...named].join("\u001f"))
    .digest("base64url");
  return {
    /** The hidden fields the confirmation's form sends back. */
    fields: { [CONFIRMED_FIELD]: token },
    /** Whether these submitted values come from that confirmation. */
    given(values: Record<string, string | undefined>): boolean {
      const sent = values[CONFIRMED_FIELD];
      return !!sent && sent.length === token.length && timingSafeEqual(Buffer.from(sent), Buffer.from(token));
    },
  };
}
