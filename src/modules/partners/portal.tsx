import { Elysia } from "elysia";
import { KeysPage, type KeysProps } from "../../../views/partners/keys";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { redirectTo } from "../../portal/kit";
import { formValues, page, refusedProblem } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { keyLabelOf, modeOf } from "./model";
import { keySlots } from "./presenter";
import { partnerKeys, revokeKey, rotateKey, setAccountMode } from "./service";

const MODE_SWITCHED = {
  live: "The account is in live mode: the legacy key and this portal now issue live, billed policies.",
  test: "The account is in test mode: the legacy key and this portal now issue test policies.",
} as const;

/** Partner pages: API keys and the account mode (owners change, staff look). */
export const partnerPortal = (deps: AppDeps) => {
  const db = deps.database.db;

  async function keysPage(request: Request, viewer: PortalViewer, csrf: string, extra: Partial<KeysProps> = {}) {
    const props: KeysProps = {
      slots: keySlots(await partnerKeys(db, viewer.partnerId)),
      mode: viewer.mode,
      canChange: viewer.role === "owner",
      csrf,
      ...extra,
    };
    return page(request, { title: "API keys", active: "keys", viewer, csrf }, <KeysPage {...props} />);
  }

  return new Elysia({ name: "portal-partners" })
    .use(portalSession(deps))
    .get(
      "/portal/keys",
      ({ viewer, csrf, request, query }) =>
        // What the switch just did, said while it is still true (the JSON surface may switch back).
        keysPage(request, viewer, csrf, query.switched === viewer.mode ? { done: MODE_SWITCHED[viewer.mode] } : {}),
      { portal: "partner" },
    )
    .post(
      "/portal/keys/rotate",
      async ({ viewer, csrf, request, body, set }) => {
        try {
          const label = keyLabelOf(formValues(body).label);
          const issued = await rotateKey(db, viewer.partnerId, label, { actor: viewer, now: new Date() });
          return keysPage(request, viewer, csrf, { issued: { label, ...issued } });
        } catch (error) {
          return keysPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal: "owner" },
    )
    .post(
      "/portal/keys/revoke",
      async ({ viewer, csrf, request, body, set }) => {
        const keyId = normaliseUuid(formValues(body).keyId);
        try {
          if (!keyId) throw new CommandError(404, "no such key on this account");
          const revoked = await revokeKey(db, keyId, { partnerId: viewer.partnerId, audit: { actor: viewer, now: new Date() } });
          return keysPage(request, viewer, csrf, { done: `The ${revoked.label} key ${revoked.id} is revoked: requests with it are refused from now on.` });
        } catch (error) {
          return keysPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal: "owner" },
    )
    .post(
      "/portal/keys/mode",
      async ({ viewer, csrf, request, body, set }) => {
        try {
          const mode = modeOf(formValues(body).mode);
          await setAccountMode(db, viewer.partnerId, mode, { actor: viewer, now: new Date() });
          // Post, redirect, get: a reload does not send the switch again, and the header shows the new mode.
          return redirectTo(request, set, `/portal/keys?switched=${mode}`);
        } catch (error) {
          return keysPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal: "owner" },
    );
};
