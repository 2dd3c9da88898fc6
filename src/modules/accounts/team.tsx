import { Elysia } from "elysia";
import { TEAMS, type Team, TeamPage, type TeamProps } from "../../../views/partners/team";
import { CommandError } from "../../core/errors";
import { formatNaira } from "../../core/money";
import type { AppDeps } from "../../http/context";
import { formValues, page, refusedProblem } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { CLAIM_AUTHORITIES, CLAIM_AUTHORITY_WORDS } from "../partners";
import { inviteStaff, listUsers, resendInvitation, setClaimAuthority, setStaffActive } from "./service";

/** The authorities over claims an administrator may have, each with how much it decides alone (the settings). */
const claimAuthorities = (config: AppDeps["config"]) =>
  CLAIM_AUTHORITIES.map((value) => {
    const limit = value === "head" ? null : value === "manager" ? config.CLAIM_AUTHORITY_MANAGER_KOBO : config.CLAIM_AUTHORITY_ASSESSOR_KOBO;
    return { value, label: `${CLAIM_AUTHORITY_WORDS[value]} (${limit === null ? "any amount" : `up to ${formatNaira(limit)}`})` };
  });

/** Who opens each team's page: a partner account's owner, or any of the operator's administrators. */
const ACCESS = { partner: "owner", operator: "admin" } as const;
/** Each page's entry in the side navigation. */
const NAV_KEY = { partner: "team", operator: "administrators" } as const;

/**
 * One team's page (views/partners/team.tsx): a partner's owner and their staff at /portal/team, the
 * operator's administrators at /admin/administrators. The same service invites (and invites again),
 * deactivates and reactivates both (src/modules/accounts/service.ts), each change with its audit row.
 */
export const teamPages = (deps: AppDeps, team: Team) => {
  const db = deps.database.db;
  const { href, title } = TEAMS[team];
  const portal = ACCESS[team];

  async function teamPage(request: Request, viewer: PortalViewer, csrf: string, extra: Partial<TeamProps> = {}) {
    const users = await listUsers(db, viewer.partnerId);
    const props: TeamProps = {
      team,
      viewerId: viewer.userId,
      users,
      invite: { values: {} },
      csrf,
      // The operator's administrators: each one's authority over claims, which the head of claims sets.
      ...(team === "operator"
        ? { authorities: claimAuthorities(deps.config), setsAuthority: users.find((u) => u.id === viewer.userId)?.claimAuthority === "head" }
        : {}),
      ...extra,
    };
    return page(request, { title, active: NAV_KEY[team], viewer, csrf }, <TeamPage {...props} />);
  }

  // The operator's administrators only: each one's authority over claims, which the head of claims sets.
  const authority = new Elysia({ name: `team-${team}-authority` }).use(portalSession(deps));
  if (team === "operator")
    authority.post(
      `${href}/:id/authority`,
      async ({ viewer, csrf, request, params, body, set }) => {
        try {
          const values = formValues(body);
          const { email } = await setClaimAuthority(db, viewer, params.id, values.claimAuthority ?? "", new Date());
          const label = claimAuthorities(deps.config).find((a) => a.value === values.claimAuthority)?.label;
          return teamPage(request, viewer, csrf, { done: `${email} now decides claims as: ${label}.` });
        } catch (error) {
          return teamPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal },
    );

  return new Elysia({ name: `team-${team}` })
    .use(portalSession(deps))
    .use(authority)
    .get(href, ({ viewer, csrf, request }) => teamPage(request, viewer, csrf), { portal })
    .post(
      href,
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        try {
          const { user, oneTimePassword } = await inviteStaff(db, viewer, { email: values.email ?? "", name: values.name ?? "" }, deps.config, new Date());
          return teamPage(request, viewer, csrf, { invited: { email: user.email, name: user.name, oneTimePassword } });
        } catch (error) {
          return teamPage(request, viewer, csrf, { invite: { values, problem: refusedProblem(error, set) } });
        }
      },
      { portal },
    )
    .post(
      `${href}/:id/invitation`,
      async ({ viewer, csrf, request, params, set }) => {
        try {
          const { email } = await resendInvitation(db, viewer, params.id, deps.config, new Date());
          return teamPage(request, viewer, csrf, { done: `The invitation was sent to ${email} again, with a new link; the one sent before no longer works.` });
        } catch (error) {
          return teamPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal },
    )
    .post(
      `${href}/:id/:change`,
      async ({ viewer, csrf, request, params, set }) => {
        try {
          if (params.change !== "deactivate" && params.change !== "reactivate") throw new CommandError(404, "no such change: deactivate or reactivate");
          const active = params.change === "reactivate";
          const { email } = await setStaffActive(db, viewer, params.id, active, new Date());
          return teamPage(request, viewer, csrf, { done: active ? `${email} can sign in again.` : `${email} is deactivated and signed out everywhere.` });
        } catch (error) {
          return teamPage(request, viewer, csrf, { problem: refusedProblem(error, set) });
        }
      },
      { portal },
    );
};
