import { type DashboardChart, DashboardCharts } from "../charts/dashboard-charts";
import { dateTime, naira, POLICY_STATUS_TEXT } from "../format";
import { Badge, Table } from "./ui";

export interface RecentPolicy {
  reference: string;
  productName: string;
  consumerName: string;
  status: string;
  premiumKobo: number;
  at: Date;
}

export function Dashboard(props: {
  mode: "test" | "live";
  byStatus: Record<string, number>;
  /** Approved policies whose cover ends within 30 days. */
  expiringSoon: number;
  premiumThisMonthKobo: number;
  walletKobo: number;
  recent: RecentPolicy[];
  charts: DashboardChart[];
}) {
  return (
    <section>
      <h1>Dashboard</h1>
      <p class="muted">
        {props.mode === "live" ? "Live policies and premiums." : "Test mode: specimen policies, nothing billed. Switch modes on the API keys page."}
      </p>
      <div class="tiles">
        {(["p", "a", "d", "l"] as const).map((status) => (
          <a class="tile" href={`/portal/policies?status=${status}`}>
            <span class="tile-value" safe>
              {String(props.byStatus[status] ?? 0)}
            </span>
            <span class="tile-label" safe>
              {POLICY_STATUS_TEXT[status]}
            </span>
          </a>
        ))}
        <a class="tile" href="/portal/policies?expiring=30">
          <span class="tile-value" safe>
            {String(props.expiringSoon)}
          </span>
          <span class="tile-label">Expiring within 30 days</span>
        </a>
        <div class="tile">
          <span class="tile-value" safe>
            {naira(props.premiumThisMonthKobo)}
          </span>
          <span class="tile-label">Premium this month</span>
        </div>
        <a class="tile" href="/portal/wallet">
          <span class="tile-value" safe>
            {naira(props.walletKobo)}
          </span>
          <span class="tile-label">Wallet balance</span>
        </a>
      </div>
      <DashboardCharts charts={props.charts} />
      <h2>Recent activity</h2>
      <Table
        columns={["When", "Reference", "Consumer", "Product", "Status", "Premium"]}
        count={props.recent.length}
        empty={
          <>
            Nothing yet. <a href="/portal/quote">Quote and issue a first policy</a>.
          </>
        }
      >
        {props.recent.map((p) => (
          <tr>
            <td safe>{dateTime(p.at)}</td>
            <td>
              <a href={`/portal/policies/${encodeURIComponent(p.reference)}`} safe>
                {p.reference}
              </a>
            </td>
            <td safe>{p.consumerName}</td>
            <td safe>{p.productName}</td>
            <td>
              <Badge tone={p.status === "a" ? "ok" : p.status === "p" ? "wait" : "bad"} text={POLICY_STATUS_TEXT[p.status] ?? p.status} />
            </td>
            <td safe>{naira(p.premiumKobo)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
