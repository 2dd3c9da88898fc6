import { BarChart, type ChartProps, ColumnChart, LineChart } from "./charts";

/** One chart of a dashboard and how it is drawn. */
export interface DashboardChart {
  kind: "column" | "bar" | "line";
  chart: ChartProps;
}

const DRAW = { column: ColumnChart, bar: BarChart, line: LineChart } as const;

/** A dashboard's charts, two abreast on a wide screen and one under the other on a phone. */
export function DashboardCharts(props: { charts: DashboardChart[] }) {
  return (
    <section class="charts" aria-labelledby="charts-title">
      <h2 id="charts-title">Charts</h2>
      <div class="chart-grid">
        {props.charts.map(({ kind, chart }) => {
          const Draw = DRAW[kind];
          return <Draw {...chart} />;
        })}
      </div>
    </section>
  );
}

/** The operator's dashboard: every partner's live business in charts. */
export function AdminDashboard(props: { charts: DashboardChart[] }) {
  return (
    <section>
      <h1>Dashboard</h1>
      <p class="muted">Every partner's live business, up to this moment. Test policies are left out; each partner's wallet is on their dashboard.</p>
      <DashboardCharts charts={props.charts} />
    </section>
  );
}
