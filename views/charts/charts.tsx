import type { Children } from "@kitajs/html";
import { naira } from "../format";
import { Empty, Table } from "../portal/ui";

/**
 * Charts drawn on the server as SVG: no script, nothing from another site, readable without
 * colour. The SVG scales to its box (viewBox, width 100 %), so a phone shows the whole chart; it
 * is one image to a screen reader (role="img" with a summary), and the figures are in a table
 * under "Show as a table".
 */

/** How a figure reads: naira from kobo, a count, or a share as a percentage. */
type Unit = "naira" | "count" | "percent";

interface ChartPoint {
  /** The label in the table and the summary ("3 Nov 2026", "Vehicle third party"). */
  label: string;
  /** A short label for the axis ("3 Nov"); the label when absent. */
  short?: string;
  /** Null: no figure (a month without premium has no claims ratio). */
  value: number | null;
  /** Figures shown only in the table, one for each of the chart's `extra` columns. */
  extra?: number[];
}

export interface ChartProps {
  /** Unique on the page: names the figure's parts. */
  id: string;
  title: string;
  /** What is measured, in a sentence under the title. */
  description: string;
  /** The table's first heading ("Day", "Product"). */
  labelHeading: string;
  valueHeading: string;
  unit: Unit;
  extra?: { heading: string; unit: Unit }[];
  points: ChartPoint[];
  /** Shown instead of the chart when every figure is zero or missing. */
  empty: string;
}

const WIDTH = 480;
const FONT = 13;

function formatFigure(value: number | null, unit: Unit): string {
  if (value === null) return "—";
  if (unit === "naira") return naira(value);
  if (unit === "percent") return `${(value * 100).toFixed(1)} %`;
  return value.toLocaleString("en-NG");
}

/** An axis top that reads well: 1, 2 or 5 times a power of ten, at or above `max`. */
function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((m) => m * power).find((top) => top >= max) ?? 10 * power) as number;
}

/** Whether there is anything to draw. */
const hasFigures = (points: ChartPoint[]) => points.some((p) => p.value !== null && p.value !== 0);

/** The sentence a screen reader hears for the picture: the range and the highest point. */
function summary(props: ChartProps): string {
  const figures = props.points.filter((p) => p.value !== null) as (ChartPoint & { value: number })[];
  // The picture is drawn (and this read) only when there is a figure; the guard keeps an empty chart harmless.
  if (!figures.length) return props.title;
  const highest = figures.reduce((best, p) => (p.value > best.value ? p : best), figures[0]!);
  const span = props.points.length > 1 ? `, ${props.points[0]!.label} to ${props.points.at(-1)!.label}` : "";
  return `${props.title}${span}. Highest: ${formatFigure(highest.value, props.unit)} (${highest.label}). The figures are in the table below.`;
}

/** Title, description, the picture or the empty line, and the table alternative. */
function ChartFrame(props: ChartProps & { children: JSX.Element }) {
  return (
    <figure class="chart" id={props.id} aria-labelledby={`${props.id}-title`}>
      <figcaption>
        <h3 id={`${props.id}-title`} safe>
          {props.title}
        </h3>
        <p class="muted" safe>
          {props.description}
        </p>
      </figcaption>
      {hasFigures(props.points) ? (
        <>
          {props.children as "safe"}
          <details>
            <summary>Show as a table</summary>
            <Table
              caption={props.title}
              columns={[
                props.labelHeading,
                { label: props.valueHeading, numeric: true },
                ...(props.extra ?? []).map((e) => ({ label: e.heading, numeric: true as const })),
              ]}
            >
              {props.points.map((p) => (
                <tr>
                  <th scope="row" safe>
                    {p.label}
                  </th>
                  <td class="num" safe>
                    {formatFigure(p.value, props.unit)}
                  </td>
                  {(props.extra ?? []).map((e, i) => (
                    <td class="num" safe>
                      {formatFigure(p.extra?.[i] ?? null, e.unit)}
                    </td>
                  ))}
                </tr>
              ))}
            </Table>
          </details>
        </>
      ) : (
        <Empty>{props.empty as "safe"}</Empty>
      )}
    </figure>
  );
}

/** Where an axis label sits: the first and last keep inside the picture (aligned to the plot's edges), the rest centre on their point. */
function axisLabel(index: number, count: number, centre: number, plot: { left: number; right: number }): { x: string; anchor: "start" | "middle" | "end" } {
  if (count > 1 && index === 0) return { x: String(plot.left), anchor: "start" };
  if (count > 1 && index === count - 1) return { x: String(plot.right), anchor: "end" };
  return { x: centre.toFixed(1), anchor: "middle" };
}

function AxisText(props: { x: string; y: number; anchor: "start" | "middle" | "end"; text: string }) {
  return (
    <text x={props.x} y={props.y} font-size={FONT} text-anchor={props.anchor} class="chart-axis" safe>
      {props.text}
    </text>
  );
}

/** Which axis labels to write: every one when few, else about six evenly spread (the last always). */
function labelled(count: number, index: number): boolean {
  if (count <= 12) return true;
  const step = Math.ceil(count / 6);
  return index === count - 1 || (index % step === 0 && count - 1 - index >= step / 2);
}

/** The pictures with a vertical scale (columns, lines): their height and where the marks go. */
const SCALED_HEIGHT = 220;
const plot = { left: 8, top: 24, bottom: SCALED_HEIGHT - 28, right: WIDTH - 8 };

/** The scale of figures drawn upright: its top, a round figure above the largest, and where a figure sits. */
function verticalScale(points: ChartProps["points"]) {
  const top = niceTop(Math.max(0, ...points.map((p) => p.value ?? 0)));
  return { top, y: (v: number) => plot.bottom - (v / top) * (plot.bottom - plot.top) };
}

/** A picture with a vertical scale: the top figure, rules at the top and half-way, the base line; the marks are its children. */
function ScaledPicture(props: ChartProps & { top: number; children: Children }) {
  return (
    <ChartFrame {...props}>
      <svg class="chart-svg" viewBox={`0 0 ${WIDTH} ${SCALED_HEIGHT}`} width="100%" role="img" aria-label={summary(props)} focusable="false">
        <text x={plot.left} y={FONT} font-size={FONT} class="chart-axis" safe>
          {formatFigure(props.top, props.unit)}
        </text>
        <line x1={plot.left} x2={plot.right} y1={plot.top} y2={plot.top} class="chart-rule" />
        <line x1={plot.left} x2={plot.right} y1={(plot.top + plot.bottom) / 2} y2={(plot.top + plot.bottom) / 2} class="chart-rule" />
        <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} class="chart-base" />
        {props.children}
      </svg>
    </ChartFrame>
  );
}

/** Figures over time or by bucket as upright bars (premium by day or month). */
export function ColumnChart(props: ChartProps) {
  const { top, y } = verticalScale(props.points);
  const slot = (plot.right - plot.left) / Math.max(1, props.points.length);
  return (
    <ScaledPicture {...props} top={top}>
      {props.points.map((p, i) => {
        const value = p.value ?? 0;
        const x = plot.left + i * slot;
        return (
          <>
            {value > 0 ? (
              <rect
                class="chart-bar"
                x={(x + slot * 0.15).toFixed(1)}
                width={(slot * 0.7).toFixed(1)}
                y={y(value).toFixed(1)}
                height={(plot.bottom - y(value)).toFixed(1)}
              />
            ) : (
              ""
            )}
            {labelled(props.points.length, i) ? (
              <AxisText {...axisLabel(i, props.points.length, x + slot / 2, plot)} y={SCALED_HEIGHT - 8} text={p.short ?? p.label} />
            ) : (
              ""
            )}
          </>
        );
      })}
    </ScaledPicture>
  );
}

/** A bar's name cut to what fits across the picture; the table keeps it whole. */
const fitted = (label: string) => (label.length > 64 ? `${label.slice(0, 63)}…` : label);

/** Figures by category as bars across, each named above its bar (policies by product or status). */
export function BarChart(props: ChartProps) {
  const row = 38;
  const height = props.points.length * row + 4;
  const top = Math.max(1, ...props.points.map((p) => p.value ?? 0));
  // Room on the right for the figure after the longest bar.
  const span = WIDTH - 110;
  return (
    <ChartFrame {...props}>
      <svg class="chart-svg" viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={summary(props)} focusable="false">
        {props.points.map((p, i) => {
          const width = Math.max(p.value ? 2 : 0, ((p.value ?? 0) / top) * span);
          const y = i * row;
          return (
            <>
              <text x="0" y={y + FONT} font-size={FONT} class="chart-axis" safe>
                {fitted(p.short ?? p.label)}
              </text>
              <rect class="chart-bar" x="0" y={y + 18} height="14" width={width.toFixed(1)} />
              <text x={(width + 6).toFixed(1)} y={y + 30} font-size={FONT} class="chart-axis" safe>
                {formatFigure(p.value, props.unit)}
              </text>
            </>
          );
        })}
      </svg>
    </ChartFrame>
  );
}

/** A figure over time as a line with a dot at each point; a missing figure breaks the line (claims ratio, wallet balance). */
export function LineChart(props: ChartProps) {
  const { top, y } = verticalScale(props.points);
  const step = (plot.right - plot.left) / Math.max(1, props.points.length);
  const x = (i: number) => plot.left + step * (i + 0.5);
  // Runs of points with figures, each drawn as one line.
  const runs: string[][] = [];
  for (const [i, p] of props.points.entries()) {
    if (p.value === null) runs.push([]);
    else {
      if (!runs.length) runs.push([]);
      runs.at(-1)!.push(`${x(i).toFixed(1)},${y(p.value).toFixed(1)}`);
    }
  }
  return (
    <ScaledPicture {...props} top={top}>
      {runs
        .filter((r) => r.length > 1)
        .map((r) => (
          <polyline class="chart-line" points={r.join(" ")} />
        ))}
      {props.points.map((p, i) => (
        <>
          {p.value === null ? "" : <circle class="chart-dot" cx={x(i).toFixed(1)} cy={y(p.value).toFixed(1)} r="3" />}
          {labelled(props.points.length, i) ? (
            <AxisText {...axisLabel(i, props.points.length, x(i), plot)} y={SCALED_HEIGHT - 8} text={p.short ?? p.label} />
          ) : (
            ""
          )}
        </>
      ))}
    </ScaledPicture>
  );
}
