import { day, naira } from "../format";
import { FundingList, type FundingRow } from "../funding/funding";
import { UserCells, type UserRow } from "../partners/team";
import { type PolicyRow, PolicyRows, policyColumns } from "../policies/policies";
import { Badge, Table } from "../portal/ui";

/** A month's statement in short: what the partner owed for it and where the wallet ended. */
interface StatementLine {
  /** The month in words ("November 2026 so far"). */
  label: string;
  netDueKobo: number;
  closingKobo: number;
  href: string;
}

export interface PartnerPageProps {
  partner: { id: string; name: string; mode: "test" | "live"; suspended: boolean; enrichment: boolean; createdAt: Date; financeEmail: string | null };
  liveBalanceKobo: number;
  testBalanceKobo: number;
  users: UserRow[];
  /** The newest few, each linking to the policy's page. */
  policies: PolicyRow[];
  fundings: FundingRow[];
  /** This month so far and the months before it. */
  statements: StatementLine[];
  /** The statements page with this partner chosen: any month. */
  statementsHref: string;
  /** The operator's full lists, filtered to this partner. */
  links: { policies: string; claims: string; fundings: string };
  csrf: string;
}

function Tile(props: { value: string; label: string }) {
  return (
    <div class="tile">
      <span class="tile-value" safe>
        {props.value}
      </span>
      <span class="tile-label" safe>
        {props.label}
      </span>
    </div>
  );
}

/** The operator's page of one partner: its account, wallet, users, newest policies, live top-ups and statements. */
export function PartnerPage(props: PartnerPageProps) {
  const p = props.partner;
  return (
    <section id="partner" aria-labelledby="partner-title">
      <p>
        <a href="/admin/partners">All partners</a>
      </p>
      <h1 id="partner-title" safe>
        {p.name}
      </h1>
      <p>
        {p.suspended ? <Badge tone="bad" text="Suspended" /> : <Badge tone="ok" text="Active" />}{" "}
        <span class={`mode mode-${p.mode}`}>{p.mode === "live" ? "LIVE" : "TEST MODE"}</span>{" "}
        <span class="muted" safe>
          {`Vehicle checks ${p.enrichment ? "active" : "off"} · partner since ${day(p.createdAt)} · partner id ${p.id}`}
        </span>
      </p>
      <p>
        {p.financeEmail ? (
          <>
            Monthly statements are e-mailed to <span safe>{p.financeEmail}</span>.
          </>
        ) : (
          "No finance contact: monthly statements are not e-mailed."
        )}
      </p>
      <p class="muted">
        Suspend, reinstate or switch vehicle checks on the <a href={`/admin/partners#partner-${p.id}`}>Partners</a> page.
      </p>
      <div class="tiles">
        <Tile value={naira(props.liveBalanceKobo)} label="Live wallet balance" />
        <Tile value={naira(props.testBalanceKobo)} label="Test balance (specimen top-ups)" />
      </div>

      <h2>Users</h2>
      <Table
        columns={["Name", "E-mail", "Role", "Status", "Last signed in"]}
        caption={`Portal users of ${p.name}`}
        count={props.users.length}
        empty="No users."
        stacked
      >
        {props.users.map((u) => (
          <tr>
            <UserCells user={u} />
          </tr>
        ))}
      </Table>

      <h2>Newest policies</h2>
      <Table columns={policyColumns()} caption={`Newest policies of ${p.name}`} count={props.policies.length} empty="No policies yet.">
        <PolicyRows rows={props.policies} more={null} />
      </Table>
      <p>
        <a href={props.links.policies} safe>{`Every policy of ${p.name}`}</a> · <a href={props.links.claims} safe>{`Every claim of ${p.name}`}</a>
      </p>

      <FundingList rows={props.fundings} csrf={props.csrf} heading="Newest live top-ups" />
      <p>
        <a href={props.links.fundings} safe>{`Every live top-up of ${p.name}, with who confirmed it`}</a>
      </p>

      <h2>Statements</h2>
      <Table columns={["Month", { label: "Net due", numeric: true }, { label: "Closing balance", numeric: true }]} caption={`Monthly statements of ${p.name}`}>
        {props.statements.map((s) => (
          <tr>
            <th scope="row">
              <a href={s.href} safe>
                {s.label}
              </a>
            </th>
            <td class="num" safe>
              {naira(s.netDueKobo)}
            </td>
            <td class="num" safe>
              {naira(s.closingKobo)}
            </td>
          </tr>
        ))}
      </Table>
      <p>
        <a href={props.statementsHref}>Any month's statement</a>
      </p>
    </section>
  );
}
