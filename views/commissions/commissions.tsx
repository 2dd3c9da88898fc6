/** The monthly statement (partners, and the operator for any partner) and the operator's commission rates. */
import { naira } from "../format";
import { Csrf, Done, type FormProblem, type FormValues, Input, ProblemSummary, Table } from "../portal/ui";

/** One line of a monthly statement, as the presenter makes it. */
export interface StatementFigure {
  label: string;
  kobo: number;
  /** How the figure is made, in a few words. */
  note: string;
  /** The figures the statement adds up to (net due, closing balance). */
  total?: boolean;
}

interface StatementProductRow {
  name: string;
  policiesWritten: number;
  premiumsKobo: number;
  refundsKobo: number;
  commissionKobo: number;
  commissionReversedKobo: number;
}

export interface StatementProps {
  /** The page itself (GET with ?month=, and ?partner= for the operator). */
  action: string;
  month: string;
  currentMonth: string;
  problem?: FormProblem;
  /** The operator chooses whose statement. */
  partners?: { options: readonly { value: string; label: string }[]; chosen?: string };
  statement?: {
    partnerName: string;
    period: string;
    due: StatementFigure[];
    wallet: StatementFigure[];
    policiesWritten: number;
    products: StatementProductRow[];
    pdfHref: string;
    csvHref: string;
  };
}

function Figures(props: { caption: string; figures: StatementFigure[] }) {
  return (
    <Table columns={["Figure", { label: "Amount", numeric: true }, "How it is made"]} caption={props.caption} showCaption>
      {props.figures.map((f) => (
        <tr class={f.total ? "total" : undefined}>
          <th scope="row" safe>
            {f.label}
          </th>
          <td class="num" safe>
            {naira(f.kobo)}
          </td>
          <td class="muted" safe>
            {f.note}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A month's statement with its month picker and downloads. */
export function StatementPage(props: StatementProps) {
  const s = props.statement;
  return (
    <section id="statement" aria-labelledby="statement-title">
      <h1 id="statement-title">Monthly statement</h1>
      <p class="muted">
        {props.partners ? "What a partner's live business" : "What your live business"} cost and earned in a month (Nigerian time): every amount is a sum of the
        month's wallet lines, so the opening balance plus the month's movements is the closing balance, to the kobo. Vehicle registry checks are invoiced apart
        from the wallet.
      </p>
      <ProblemSummary problem={props.problem} inputs={["month", "partner"]} />
      <form class="filters" method="get" action={props.action}>
        {props.partners ? (
          <Input
            name="partner"
            label="Partner"
            kind="select"
            options={props.partners.options}
            value={props.partners.chosen}
            problem={props.problem}
            emptyChoice="Choose a partner…"
          />
        ) : (
          ""
        )}
        <Input name="month" label="Month (Nigerian time)" kind="month" value={props.month} max={props.currentMonth} problem={props.problem} />
        <button type="submit">Show</button>
      </form>
      {s ? (
        <>
          <h2 safe>{`${s.partnerName}: ${s.period}`}</h2>
          <p>
            <a class="button secondary" href={s.pdfHref} download="">
              Download PDF
            </a>{" "}
            <a class="button secondary" href={s.csvHref} download="">
              Download CSV
            </a>
          </p>
          <Figures caption="Net due for the month" figures={s.due} />
          <Figures caption="Wallet" figures={s.wallet} />
          <Table
            caption={`Policies written: ${s.policiesWritten}`}
            showCaption
            columns={[
              "Product",
              { label: "Policies written", numeric: true },
              { label: "Premiums charged", numeric: true },
              { label: "Refunded", numeric: true },
              { label: "Commission earned", numeric: true },
              { label: "Commission given back", numeric: true },
            ]}
            count={s.products.length}
            empty="No live policies, premiums or commission in this month."
          >
            {s.products.map((p) => (
              <tr>
                <th scope="row" safe>
                  {p.name}
                </th>
                <td class="num">{p.policiesWritten}</td>
                <td class="num" safe>
                  {naira(p.premiumsKobo)}
                </td>
                <td class="num" safe>
                  {naira(p.refundsKobo)}
                </td>
                <td class="num" safe>
                  {naira(p.commissionKobo)}
                </td>
                <td class="num" safe>
                  {naira(p.commissionReversedKobo)}
                </td>
              </tr>
            ))}
          </Table>
        </>
      ) : (
        ""
      )}
    </section>
  );
}

// ─── The operator's rates ───────────────────────────────────────────────────────────────────

export interface RateRow {
  name: string;
  href: string;
  /** "12.5 %", or null when no rate is set. */
  rate: string | null;
  overrides: readonly { partnerName: string; rate: string }[];
}

const NO_RATE = "None set: earns nothing";

/** Every product with its commission rate and the partners' own rates. */
export function RatesPage(props: { rows: readonly RateRow[] }) {
  return (
    <>
      <h1>Commission rates</h1>
      <p class="muted">
        The share of a live premium a partner earns when the policy is approved, credited to its wallet. A partner's own rate for a product wins over the
        product's. A change applies to policies approved after it; commission already earned stays as it was.
      </p>
      <Table columns={["Product", "Rate for every partner", "Partners' own rates", ""]} caption="Commission rates by product" stacked>
        {props.rows.map((row) => (
          <tr>
            <th scope="row" safe>
              {row.name}
            </th>
            <td data-label="Rate for every partner" safe>
              {row.rate ?? NO_RATE}
            </td>
            <td data-label="Partners' own rates">{row.overrides.length ? row.overrides.map((o) => <div safe>{`${o.partnerName}: ${o.rate}`}</div>) : "—"}</td>
            <td>
              <a href={row.href}>Change</a>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

export interface ProductRatesProps {
  name: string;
  csrf: string;
  backHref: string;
  /** Where the product's rate form posts; a partner's rate posts to `partnerAction`, a removal to its row's `removeAction`. */
  action: string;
  partnerAction: string;
  rate: string | null;
  overrides: readonly { partnerName: string; rate: string; removeAction: string }[];
  partners: readonly { value: string; label: string }[];
  done?: string;
  /** A refused form: which one, what was typed, why. */
  refused?: { form: "product" | "partner"; values: FormValues; problem: FormProblem };
}

/** One product's rate and the partners' own rates, each changed by its own form. */
export function ProductRatesPage(props: ProductRatesProps) {
  const refused = (form: "product" | "partner") => (props.refused?.form === form ? props.refused : undefined);
  return (
    <>
      <p>
        <a href={props.backHref}>← All commission rates</a>
      </p>
      <h1 safe>{`Commission on ${props.name}`}</h1>
      <Done text={props.done} />
      <div class="card">
        <h2>Rate for every partner</h2>
        <p safe>{`Now: ${props.rate ?? NO_RATE}.`}</p>
        <ProblemSummary problem={refused("product")?.problem} inputs={["rate"]} />
        <form method="post" action={props.action}>
          <Csrf token={props.csrf} />
          <Input
            name="rate"
            label="Rate (per cent of the premium)"
            kind="number"
            required
            value={refused("product")?.values.rate ?? ""}
            problem={refused("product")?.problem}
            hint="For example 12.5 for 12.5 %: from 0 to 100, at most two decimals."
          />
          <button type="submit">Save rate</button>
        </form>
      </div>
      <div class="card">
        <h2>Partners' own rates</h2>
        <Table
          columns={["Partner", "Rate", ""]}
          count={props.overrides.length}
          empty="No partner has its own rate for this product."
          caption="Partners' own rates"
        >
          {props.overrides.map((o) => (
            <tr>
              <th scope="row" safe>
                {o.partnerName}
              </th>
              <td safe>{o.rate}</td>
              <td>
                <form method="post" action={o.removeAction}>
                  <Csrf token={props.csrf} />
                  <button type="submit" class="link">
                    Remove
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </Table>
        <ProblemSummary problem={refused("partner")?.problem} inputs={["partner", "partnerRate"]} />
        <form method="post" action={props.partnerAction}>
          <Csrf token={props.csrf} />
          <Input
            name="partner"
            label="Partner"
            kind="select"
            required
            options={props.partners}
            value={refused("partner")?.values.partner}
            problem={refused("partner")?.problem}
          />
          <Input
            name="partnerRate"
            label="Its rate (per cent of the premium)"
            kind="number"
            required
            value={refused("partner")?.values.partnerRate ?? ""}
            problem={refused("partner")?.problem}
            hint="Wins over the rate for every partner. For example 15."
          />
          <button type="submit">Save the partner's rate</button>
        </form>
      </div>
    </>
  );
}
