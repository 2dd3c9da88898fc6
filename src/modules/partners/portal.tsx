import { Elysia } from "elysia";
import { KeysPage, type KeysProps } from "../../../views/partners/keys";
import { TeamPage, type TeamProps } from "../../../views/partners/team";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { redirectTo } from "../../portal/kit";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { inviteStaff, listUsers, setStaffActive } from "../accounts/service";
import { keyLabelOf, modeOf } from "./model";
import { keySlots } from "./presenter";
import { partnerKeys, revokeKey, rotateKey, setAccountMode } from "./service";

const MODE_SWITCHED = {
  live: "The account is in live mode: the legacy key and this portal now issue live, billed policies.",
  test: "The account is in test mode: the legacy key and this portal now issue test policies.",
} as const;

/** Partner pages: API keys and the account mode (owners change, staff look), and the owner's team. */
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

  async function teamPage(request: Request, viewer: PortalViewer, csrf: string, extra: Partial<TeamProps> = {}) {
    const props: TeamProps = { users: await listUsers(db, viewer.partnerId), invite: { values: {} }, csrf, ...extra };
    return page(request, { title: "Team", active: "team", viewer, csrf }, <TeamPage {...props} />);
  }

  /** A refusal's status for the response (the domain's own), and its message for the page. */
  const refused = (error: unknown, set: { status?: number | string }) => {
    const problem = problemOf(error);
    set.status = (error as CommandError).status;
    return problem;
  };

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
          return keysPage(request, viewer, csrf, { problem: refused(error, set) });
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
          return keysPage(request, viewer, csrf, { problem: refused(error, set) });
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
          return keysPage(request, viewer, csrf, { problem: refused(error, set) });
        }
      },
      { portal: "owner" },
    )
    .get("/portal/team", ({ viewer, csrf, request }) => teamPage(request, viewer, csrf), { portal: "owner" })
    .post(
      "/portal/team",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        try {
          const { user, oneTimePassword } = await inviteStaff(db, viewer, { email: values.email ?? "", name: values.name ?? "" }, new Date());
          return teamPage(request, viewer, csrf, { invited: { email: user.email, name: user.name, oneTimePassword } });
        } catch (error) {
          return teamPage(request, viewer, csrf, { invite: { values, problem: refused(error, set) } });
        }
      },
      { portal: "owner" },
    )
    .post(
      "/portal/team/:id/:change",
      async ({ viewer, csrf, request, params, set }) => {
        const userId = normaliseUuid(params.id);
        try {
          if (params.change !== "deactivate" && params.change !== "reactivate") throw new CommandError(404, "no such change: deactivate or reactivate");
          if (!userId) throw new CommandError(404, "no such staff member on this account");
          const active = params.change === "reactivate";
          await setStaffActive(db, viewer, userId, active, new Date());
          const [user] = (await listUsers(db, viewer.partnerId)).filter((u) => u.id === userId);
          return teamPage(request, viewer, csrf, {
            done: active ? `${user?.email} can sign in again.` : `${user?.email} is deactivated and signed out everywhere.`,
          });
        } catch (error) {
          return teamPage(request, viewer, csrf, { problem: refused(error, set) });
        }
      },
      { portal: "owner" },
    );
};
