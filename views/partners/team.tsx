import { dateTime } from "../format";
import { Badge, Done, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";

interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: "owner" | "staff" | "admin";
  active: boolean;
  mustChangePassword: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export interface TeamProps {
  users: TeamMember[];
  invite: { values: FormValues; problem?: FormProblem };
  /** A staff member just invited: their one-time password, shown this once. */
  invited?: { email: string; name: string; oneTimePassword: string };
  done?: string;
  /** A refusal not about the invitation (e.g. deactivating someone not on the account). */
  problem?: FormProblem;
  csrf: string;
}

const ROLE_TEXT = { owner: "Owner", staff: "Staff", admin: "Administrator" } as const;

function Invited(props: { invited: NonNullable<TeamProps["invited"]> }) {
  const i = props.invited;
  return (
    <div class="notice" role="status" aria-live="polite" id="invited-notice">
      <p>
        <strong safe>{`${i.name} (${i.email}) can now sign in.`}</strong> Give them this one-time password privately. It is shown only this once; they must
        choose their own password when they first sign in.
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

function StatusOf(props: { user: TeamMember }) {
  const u = props.user;
  if (!u.active) return <Badge tone="bad" text="Deactivated" />;
  if (u.mustChangePassword) return <Badge tone="wait" text="Invited" />;
  return <Badge tone="ok" text="Active" />;
}

/** The owner's team page: users of the account, invite staff, deactivate or reactivate them. */
export function TeamPage(props: TeamProps) {
  return (
    <section id="team">
      <h1>Team</h1>
      <ProblemSummary problem={props.problem} />
      {props.invited ? <Invited invited={props.invited} /> : ""}
      <Done text={props.done} />
      <Table columns={["Name", "E-mail", "Role", "Status", "Last signed in", "Action"]} caption="Portal users of this account">
        {props.users.map((u) => (
          <tr>
            <td safe>{u.name}</td>
            <td safe>{u.email}</td>
            <td>{ROLE_TEXT[u.role]}</td>
            <td>
              <StatusOf user={u} />
            </td>
            <td>{u.lastSignInAt ? dateTime(u.lastSignInAt) : "never"}</td>
            <td>
              {u.role !== "staff" ? (
                ""
              ) : (
                <HxForm
                  action={`/portal/team/${u.id}/${u.active ? "deactivate" : "reactivate"}`}
                  target="#team"
                  confirm={u.active ? "Deactivate this user? They are signed out at once." : undefined}
                  class="inline"
                  csrf={props.csrf}
                >
                  <button type="submit" class={u.active ? "danger" : "secondary"} aria-label={`${u.active ? "Deactivate" : "Reactivate"} ${u.email}`}>
                    {u.active ? "Deactivate" : "Reactivate"}
                  </button>
                </HxForm>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <div class="card">
        <h2>Invite a staff member</h2>
        <p class="muted">Staff use every partner page except this one; they can see the API keys but not change them.</p>
        <ProblemSummary problem={props.invite.problem} inputs={["email", "name"]} />
        <HxForm action="/portal/team" target="#team" csrf={props.csrf}>
          <Input name="name" label="Name" required value={props.invite.values.name} problem={props.invite.problem} autocomplete="off" />
          <Input name="email" label="E-mail" kind="email" required value={props.invite.values.email} problem={props.invite.problem} autocomplete="off" />
          <button type="submit">Invite</button>
        </HxForm>
      </div>
    </section>
  );
}
