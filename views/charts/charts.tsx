import type { Children } from "@kitajs/html";
import { naira } from "../format";
import { Empty, Table } from "../portal/ui";

/**
 * Charts drawn on the server as SVG: no script, nothing from another site, readable without
 * colour. Each picture fills its box's width (positions across are percentages), so a phone shows
 * the whole chart with text at the page's size; it is one image to a screen reader (role="img"
 * with a summary), and the figures are in a table under "Show as a table".
 */

/** How a figure reads: naira from kobo, a count, a share as a percentage, or a duration in days. */
type Unit = "naira" | "count" | "percent" | "days";

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
  /** The page shows the figures in a table of its own beside the chart: no "Show as a table" under it. */
  tableBeside?: boolean;
}

/** The baseline of the scale's top figure, one line of axis text below the picture's top. */
const TOP_FIGURE_BASELINE = 14;

function formatFigure(value: number | null, unit: Unit): string {
  if (value === null) return "—";
  if (unit === "naira") return naira(value);
  if (unit === "percent") return `${(value * 100).toFixed(1)} %`;
  if (unit === "days") return `${value.toLocaleString("en-NG", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} days`;
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
  return `${props.title}${span}. Highest: ${formatFigure(highest.value, props.unit)} (${highest.label}). The figures are in the table ${props.tableBeside ? "beside it" : "below"}.`;
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
      {hasFigures(props.points) && props.tableBeside ? (
        (props.children as "safe")
      ) : hasFigures(props.points) ? (
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

/** A position or length across the picture, as a share of its width. */
const across = (percent: number) => `${percent.toFixed(2)}%`;

/** Where an axis label sits: the first and last keep inside the picture (aligned to the plot's edges), the rest centre on their point. */
function axisLabel(index: number, count: number, centre: number): { x: string; anchor: "start" | "middle" | "end" } {
  if (count > 1 && index === 0) return { x: across(plot.left), anchor: "start" };
  if (count > 1 && index === count - 1) return { x: across(plot.right), anchor: "end" };
  return { x: across(centre), anchor: "middle" };
}

function AxisText(props: { x: string; y: number; anchor: "start" | "middle" | "end"; text: string }) {
  return (
    <text x={props.x} y={props.y} text-anchor={props.anchor} class="chart-axis" safe>
      {props.text}
    </text>
  );
}

/**
 * Which axis labels to write: every one when few, else about six evenly spread and the last, none
 * closer to the last than the spread (at phone width six labels are what fits side by side).
 */
function labelled(count: number, index: number): boolean {
  if (count <= 7) return true;
  const step = Math.ceil(count / 6);
  return index === count - 1 || (index % step === 0 && count - 1 - index >= step);
}

/**
 * The pictures with a vertical scale (columns, lines): a fixed height in pixels, and positions
 * across as shares of the width — so the picture fills its box at any width while its text keeps
 * the page's size (a scaled viewBox shrank the labels to a few pixels on a phone).
 */
const SCALED_HEIGHT = 220;
const plot = { left: 1.5, right: 98.5, top: 24, bottom: SCALED_HEIGHT - 28 };

/** The scale of figures drawn upright: its top, a round figure above the largest, and where a figure sits. */
function verticalScale(points: ChartProps["points"]) {
  const top = niceTop(Math.max(0, ...points.map((p) => p.value ?? 0)));
  return { top, y: (v: number) => plot.bottom - (v / top) * (plot.bottom - plot.top) };
}

/** A picture with a vertical scale: the top figure, rules at the top and half-way, the base line; the marks are its children. */
function ScaledPicture(props: ChartProps & { top: number; children: Children }) {
  const rule = (y: number, kind: string) => <line x1={across(plot.left)} x2={across(plot.right)} y1={y} y2={y} class={kind} />;
  return (
    <ChartFrame {...props}>
      <svg class="chart-svg" width="100%" height={SCALED_HEIGHT} role="img" aria-label={summary(props)} focusable="false">
        <text x={across(plot.left)} y={TOP_FIGURE_BASELINE} class="chart-axis" safe>
          {formatFigure(props.top, props.unit)}
        </text>
        {rule(plot.top, "chart-rule")}
        {rule((plot.top + plot.bottom) / 2, "chart-rule")}
        {rule(plot.bottom, "chart-base")}
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
                x={across(x + slot * 0.15)}
                width={across(slot * 0.7)}
                y={y(value).toFixed(1)}
                height={(plot.bottom - y(value)).toFixed(1)}
              />
            ) : (
              ""
            )}
            {labelled(props.points.length, i) ? (
              <AxisText {...axisLabel(i, props.points.length, x + slot / 2)} y={SCALED_HEIGHT - 8} text={p.short ?? p.label} />
            ) : (
              ""
            )}
          </>
        );
      })}
    </ScaledPicture>
  );
}

/**
 * Figures by category as bars across (policies by product or status): each name in the page's
 * text above its bar, so a long product name wraps on a phone instead of being cut.
 */
export function BarChart(props: ChartProps) {
  const top = Math.max(1, ...props.points.map((p) => p.value ?? 0));
  return (
    <ChartFrame {...props}>
      <div class="chart-bars" role="img" aria-label={summary(props)}>
        {props.points.map((p) => (
          <div class="chart-bar-row">
            <div class="chart-bar-name" safe>
              {p.short ?? p.label}
            </div>
            <div class="chart-bar-line">
              <svg class="chart-bar-track" width="100%" height="14" aria-hidden="true" focusable="false">
                <rect class="chart-bar" height="14" width={across(Math.max(p.value ? 0.5 : 0, ((p.value ?? 0) / top) * 100))} />
              </svg>
              <span class="chart-figure" safe>
                {formatFigure(p.value, props.unit)}
              </span>
            </div>
          </div>
        ))}
      </div>
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
      runs.at(-1)!.push(`${x(i).toFixed(2)},${y(p.value).toFixed(1)}`);
    }
  }
  return (
    <ScaledPicture {...props} top={top}>
      {/* A polyline takes no percentages: it is drawn on a 100-wide plane stretched across the picture, its stroke unstretched. */}
      <svg width="100%" height={SCALED_HEIGHT} viewBox={`0 0 100 ${SCALED_HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
        {runs
          .filter((r) => r.length > 1)
          .map((r) => (
            <polyline class="chart-line" points={r.join(" ")} vector-effect="non-scaling-stroke" />
          ))}
      </svg>
      {props.points.map((p, i) => (
        <>
          {p.value === null ? "" : <circle class="chart-dot" cx={across(x(i))} cy={y(p.value).toFixed(1)} r="3" />}
          {labelled(props.points.length, i) ? <AxisText {...axisLabel(i, props.points.length, x(i))} y={SCALED_HEIGHT - 8} text={p.short ?? p.label} /> : ""}
        </>
      ))}
    </ScaledPicture>
  );
}

/**
 * Two figures of each category as bars across, the first solid and the second outlined, each named
 * beside its figure (a median and its 90th percentile by product): readable without colour.
 * The second figure is the point's first `extra`, on the same scale.
 */
export function PairedBarChart(props: ChartProps & { first: string; second: string }) {
  const secondOf = (p: ChartPoint) => p.extra?.[0] ?? null;
  const top = Math.max(1, ...props.points.flatMap((p) => [p.value ?? 0, secondOf(p) ?? 0]));
  const width = (value: number | null) => across(Math.max(value ? 0.5 : 0, ((value ?? 0) / top) * 100));
  return (
    <ChartFrame {...props}>
      <div class="chart-bars" role="img" aria-label={summary(props)}>
        {props.points.map((p) => (
          <div class="chart-bar-row">
            <div class="chart-bar-name" safe>
              {p.short ?? p.label}
            </div>
            <div class="chart-bar-line">
              <svg class="chart-bar-track" width="100%" height="14" aria-hidden="true" focusable="false">
                <rect class="chart-bar" height="14" width={width(p.value)} />
              </svg>
              <span class="chart-figure" safe>
                {`${props.first} ${formatFigure(p.value, props.unit)}`}
              </span>
            </div>
            <div class="chart-bar-line">
              <svg class="chart-bar-track" width="100%" height="14" aria-hidden="true" focusable="false">
                <rect class="chart-bar-outline" x="1" y="1" height="12" width={width(secondOf(p))} />
              </svg>
              <span class="chart-figure" safe>
                {`${props.second} ${formatFigure(secondOf(p), props.extra?.[0]?.unit ?? props.unit)}`}
              </span>
            </div>
          </div>
        ))}
      </div>
    </ChartFrame>
  );
}
