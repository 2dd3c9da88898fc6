import { dateTime } from "../format";
import { Badge, Done, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";

interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: "owner" | "staff" | "admin";
  claimAuthority?: string | null;
  active: boolean;
  mustChangePassword: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

/** The two teams this page shows: a partner's portal users (the owner's), or the operator's administrators (each administrator's). */
/** What a list of portal users shows of each. */
export type UserRow = Omit<TeamMember, "id" | "createdAt">;

export const TEAMS = {
  partner: {
    title: "Team",
    href: "/portal/team",
    caption: "Portal users of this account",
    /** The role the page invites, deactivates and reactivates. */
    member: "staff",
    invite: "Invite a staff member",
    note: "Staff use every partner page except this one; they can see the API keys but not change them.",
  },
  operator: {
    title: "Administrators",
    href: "/admin/administrators",
    caption: "The operator's administrators",
    member: "admin",
    invite: "Invite an administrator",
    note: "An administrator uses every operator page. A second one approves what another asked to credit above the four-eyes threshold, and confirms the claim decisions above another's authority. Invited administrators decide claims as assessors until the head of claims says otherwise.",
  },
} as const;

export type Team = keyof typeof TEAMS;

export interface TeamProps {
  team: Team;
  /** The signed-in user: never offered to deactivate themselves. */
  viewerId: string;
  users: TeamMember[];
  invite: { values: FormValues; problem?: FormProblem };
  /** Who was just invited (and e-mailed a link): their one-time password, shown this once. */
  invited?: { email: string; name: string; oneTimePassword: string };
  done?: string;
  /** A refusal not about the invitation (e.g. deactivating someone not on the account). */
  problem?: FormProblem;
  csrf: string;
  /** The operator's team: the authorities over claims, in words with their limits, and whether the viewer (the head of claims) sets them. */
  authorities?: readonly { value: string; label: string }[];
  setsAuthority?: boolean;
}

const ROLE_TEXT = { owner: "Owner", staff: "Staff", admin: "Administrator" } as const;

function Invited(props: { invited: NonNullable<TeamProps["invited"]> }) {
  const i = props.invited;
  return (
    <div class="notice" role="status" aria-live="polite" id="invited-notice">
      <p>
        <strong safe>{`${i.name} (${i.email}) can now sign in.`}</strong> We have e-mailed them a link to choose their password.
      </p>
      <p>
        If the e-mail does not arrive, give them this one-time password privately. It is shown only this once; they must choose their own password when they
        first sign in.
      </p>
      <p>
        <span class="visually-hidden">One-time password: </span>
        <code class="secret" id="one-time-password" safe>
          {i.oneTimePassword}
        </code>
      </p>
    </div>
  );
}

/** Whether a portal user can sign in: active, invited (not signed in with their own password yet) or deactivated. */
function UserStatus(props: { user: Pick<TeamMember, "active" | "mustChangePassword"> }) {
  const u = props.user;
  if (!u.active) return <Badge tone="bad" text="Deactivated" />;
  if (u.mustChangePassword) return <Badge tone="wait" text="Invited" />;
  return <Badge tone="ok" text="Active" />;
}

/** A portal user's name (the row's heading), e-mail, role, status and last sign-in, named on a phone where the table stacks. */
export function UserCells(props: { user: UserRow }) {
  const u = props.user;
  return (
    <>
      <th scope="row" safe>
        {u.name}
      </th>
      <td data-label="E-mail" safe>
        {u.email}
      </td>
      <td data-label="Role">{ROLE_TEXT[u.role]}</td>
      <td data-label="Status">
        <UserStatus user={u} />
      </td>
      <td data-label="Last signed in">{u.lastSignInAt ? dateTime(u.lastSignInAt) : "never"}</td>
    </>
  );
}

/** An administrator's authority over claims: in words, and for the head of claims a choice to change it. */
function ClaimAuthority(props: { user: TeamMember; authorities: readonly { value: string; label: string }[]; change?: string; csrf: string }) {
  const current = props.authorities.find((a) => a.value === props.user.claimAuthority) ?? props.authorities[0]!;
  if (!props.change) return <span safe>{current.label}</span>;
  return (
    <HxForm action={props.change} target="#team" class="inline" csrf={props.csrf}>
      <label class="visually-hidden" for={`authority-${props.user.id}`} safe>{`Authority over claims of ${props.user.email}`}</label>
      <select id={`authority-${props.user.id}`} name="claimAuthority">
        {props.authorities.map((a) => (
          <option value={a.value} selected={a.value === current.value} safe>
            {a.label}
          </option>
        ))}
      </select>{" "}
      <button type="submit" class="secondary" aria-label={`Set the authority over claims of ${props.user.email}`}>
        Set
      </button>
    </HxForm>
  );
}

/** The team page: the owner's users of a partner account, or the operator's administrators; invite (and invite again), deactivate, reactivate. */
export function TeamPage(props: TeamProps) {
  const team = TEAMS[props.team];
  return (
    <section id="team">
      <h1>{team.title}</h1>
      <ProblemSummary problem={props.problem} />
      {props.invited ? <Invited invited={props.invited} /> : ""}
      <Done text={props.done} />
      <Table
        columns={["Name", "E-mail", "Role", "Status", "Last signed in", ...(props.authorities ? ["Authority over claims"] : []), "Action"]}
        caption={team.caption}
        stacked
      >
        {props.users.map((u) => (
          <tr>
            <UserCells user={u} />
            {props.authorities ? (
              <td data-label="Authority over claims">
                <ClaimAuthority
                  user={u}
                  authorities={props.authorities}
                  change={props.setsAuthority && u.id !== props.viewerId ? `${team.href}/${u.id}/authority` : undefined}
                  csrf={props.csrf}
                />
              </td>
            ) : (
              ""
            )}
            <td>
              {u.id === props.viewerId ? (
                <span class="muted">You</span>
              ) : u.role !== team.member ? (
                ""
              ) : (
                <>
                  {u.active && u.mustChangePassword ? (
                    <HxForm action={`${team.href}/${u.id}/invitation`} target="#team" class="inline" csrf={props.csrf}>
                      <button type="submit" class="secondary" aria-label={`Resend invitation to ${u.email}`}>
                        Resend invitation
                      </button>
                    </HxForm>
                  ) : (
                    ""
                  )}{" "}
                  <HxForm
                    action={`${team.href}/${u.id}/${u.active ? "deactivate" : "reactivate"}`}
                    target="#team"
                    confirm={u.active ? `Deactivate ${u.email}? They are signed out at once and cannot sign in until reactivated.` : undefined}
                    class="inline"
                    csrf={props.csrf}
                  >
                    <button type="submit" class={u.active ? "danger" : "secondary"} aria-label={`${u.active ? "Deactivate" : "Reactivate"} ${u.email}`}>
                      {u.active ? "Deactivate" : "Reactivate"}
                    </button>
                  </HxForm>
                </>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <div class="card">
        <h2>{team.invite}</h2>
        <p class="muted">{team.note}</p>
        <ProblemSummary problem={props.invite.problem} inputs={["email", "name"]} />
        <HxForm action={team.href} target="#team" csrf={props.csrf}>
          <Input name="name" label="Name" required value={props.invite.values.name} problem={props.invite.problem} autocomplete="off" />
          <Input name="email" label="E-mail" kind="email" required value={props.invite.values.email} problem={props.invite.problem} autocomplete="off" />
          <button type="submit">Invite</button>
        </HxForm>
      </div>
    </section>
  );
}
