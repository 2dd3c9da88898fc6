import type { Children } from "@kitajs/html";
import { coverPeriod, dateTime, naira, noteText, POLICY_STATUS_TEXT } from "../format";
import { ChangeHistory, type ChangeRow } from "../lifecycle/change";
import { type ListCount, ListRows, ListSection } from "../portal/list-section";
import { Badge, type Column, type FormProblem } from "../portal/ui";
import { type FieldSpec, partnerFilterField, statusField } from "../shared-forms/record";

export interface PolicyRow {
  reference: string;
  /** Set once approved: what the row is known by (before, its reference). */
  policyNo: string | null;
  productName: string;
  consumerName: string;
  /** Set on the administrators' lists. */
  partnerName?: string;
  status: string;
  premiumKobo: number;
  mode: "test" | "live";
  createdAt: Date;
  /** Where the row's reference links to. */
  href: string;
}

const statusTone = (status: string) => (status === "a" ? "ok" : status === "p" ? "wait" : status === "e" ? "info" : "bad");

export const policyColumns = (withPartner?: boolean): Column[] => [
  "Policy",
  withPartner && "Partner",
  "Insured",
  "Product",
  "Status",
  { label: "Premium", numeric: true },
  "Issued",
];

export function PolicyRows(props: { rows: PolicyRow[]; more: string | null; withPartner?: boolean }) {
  return (
    <ListRows columns={policyColumns(props.withPartner)} more={props.more}>
      {props.rows.map((p) => (
        <tr>
          <td>
            <a href={p.href} safe>
              {p.policyNo ?? p.reference}
            </a>
          </td>
          {props.withPartner ? <td safe>{p.partnerName ?? ""}</td> : ""}
          <td safe>{p.consumerName}</td>
          <td safe>{p.productName}</td>
          <td>
            <Badge tone={statusTone(p.status)} text={POLICY_STATUS_TEXT[p.status] ?? p.status} />
            {p.mode === "test" ? (
              <>
                {" "}
                <Badge tone="info" text="Test" />
              </>
            ) : (
              ""
            )}
          </td>
          <td class="num" safe>
            {naira(p.premiumKobo)}
          </td>
          <td safe>{dateTime(p.createdAt)}</td>
        </tr>
      ))}
    </ListRows>
  );
}

export interface PolicyFilterValues {
  q?: string;
  partner?: string;
  mode?: string;
  status?: string;
  expiring?: string;
  product?: string;
  from?: string;
  to?: string;
}

/** What "Find" matches, said beside its box. */
const FIND_HINT = "A policy number, the insured's name or phone, a plate or an IMEI";

/**
 * The filters of a policies list: the text to find, on the operator's the partner and the mode
 * (live business unless asked), then status, product, when the cover ends, creation dates.
 */
const policyFilters = (products: { value: string; label: string }[], partners?: { value: string; label: string }[]): FieldSpec[] => [
  { name: "q", label: "Find", kind: "text", hint: FIND_HINT },
  ...(partners ? operatorFilters(partners) : []),
  statusField(POLICY_STATUS_TEXT),
  { name: "product", label: "Product", kind: "select", emptyChoice: "Any", options: products },
  {
    name: "expiring",
    label: "Cover ends",
    kind: "select",
    emptyChoice: "Any time",
    options: [
      { value: "30", label: "Within 30 days" },
      { value: "7", label: "Within 7 days" },
    ],
  },
  { name: "from", label: "Issued from", kind: "date" },
  { name: "to", label: "to", kind: "date" },
];

/** The operator's own filters: one partner's policies, and the mode (the empty choice, the default, is live business). */
const operatorFilters = (partners: { value: string; label: string }[]): FieldSpec[] => [
  partnerFilterField(partners),
  {
    name: "mode",
    label: "Mode",
    kind: "select",
    emptyChoice: "Live",
    options: [
      { value: "test", label: "Test (specimens)" },
      { value: "all", label: "Live and test" },
    ],
  },
];

/** A policies list with its filters and the count of what they select. */
export function PolicyList(props: {
  title: string;
  action: string;
  rows: PolicyRow[];
  more: string | null;
  filters: PolicyFilterValues;
  products: { value: string; label: string }[];
  /** The operator's list: each row names its partner, and the list filters by partner and mode. */
  partners?: { value: string; label: string }[];
  /** How many the filters select. */
  count?: ListCount;
  /** A refused filter (beside its input) or page (above the list). */
  problem?: FormProblem;
  /** The same list as CSV. */
  exportHref: string;
}) {
  const withPartner = props.partners !== undefined;
  return (
    <ListSection
      heading={<h1 safe>{props.title}</h1>}
      action={props.action}
      filters={policyFilters(props.products, props.partners)}
      values={{ ...props.filters }}
      problem={props.problem}
      exportHref={props.exportHref}
      columns={policyColumns(withPartner)}
      count={props.rows.length}
      total={{ count: props.count, one: "policy", many: "policies" }}
      empty="No policies match."
    >
      <PolicyRows rows={props.rows} more={props.more} withPartner={withPartner} />
    </ListSection>
  );
}

export interface PolicyView {
  /** The policy number (before it has one, the product) and the insured: the page's title. */
  title: string;
  reference: string;
  productName: string;
  productCode: string;
  consumerName: string;
  consumerHref: string;
  status: string;
  statusNote: string | null;
  policyNo: string | null;
  premiumKobo: number;
  mode: "test" | "live";
  coverStart: Date;
  coverEnd: Date;
  createdAt: Date;
  statusAt: Date;
  printed: [string, string][];
  certificateHref: string | null;
  hostedHref: string | null;
  verifyHref: string | null;
  /** Where the status block reloads itself from while pending. */
  statusHref: string;
  /** While pending: who decides and when, in the viewer's terms. */
  pendingText: string;
  /** The partner's "Make a claim" link (approved policies). */
  claimHref?: string;
  /** The partner's "Finance the premium" link (policies that can still be financed). */
  financeHref?: string;
  /** "Cancel the policy" (approved policies, both surfaces). */
  cancelHref?: string;
  /** A cancelled policy: what came back and by which rule. */
  cancellationText?: string;
  /** "Reinstate the policy" (cancelled policies within the window). */
  reinstateHref?: string;
  /** "Renew the policy" (renewable policies in their last 60 days, not renewed yet). */
  renewHref?: string;
  /** "Change the policy" (an approved policy its product lets change now). */
  changeHref?: string;
  /** The operator's "Decide the change" (a change waits for review). */
  decideChangeHref?: string;
  /** The policy's changes, oldest first (its certificate versions). */
  changes?: readonly ChangeRow[];
  /** The policy that continues this one's cover, and the one this one continues. */
  renewal?: { reference: string; href: string };
  renews?: { reference: string; href: string };
}

/** The part of a policy that changes: reloads itself every few seconds while the policy is pending. */
/** The part of a policy's page the lifecycle module gives (src/modules/lifecycle/presenter.ts, policyLifecycleView). */
export type PolicyLifecycleView = Pick<
  PolicyView,
  "cancelHref" | "cancellationText" | "reinstateHref" | "renewHref" | "changeHref" | "decideChangeHref" | "changes" | "renewal" | "renews"
>;

export function PolicyStatusBlock(props: { policy: PolicyView }) {
  const p = props.policy;
  const pending = p.status === "p";
  return (
    <div id="policy-status" class="card" aria-live="polite" {...(pending ? { "hx-get": p.statusHref, "hx-trigger": "every 3s", "hx-swap": "outerHTML" } : {})}>
      <p>
        <Badge tone={statusTone(p.status)} text={POLICY_STATUS_TEXT[p.status] ?? p.status} />{" "}
        {pending ? (
          <span class="muted" safe>{`${p.pendingText} This page updates itself.`}</span>
        ) : (
          <span class="muted" safe>{`since ${dateTime(p.statusAt)}`}</span>
        )}
      </p>
      {p.statusNote ? <p safe>{noteText(p.statusNote)}</p> : ""}
      {p.cancellationText ? <p safe>{p.cancellationText}</p> : ""}
      {p.policyNo ? (
        <p>
          Policy number <strong safe>{p.policyNo}</strong>
        </p>
      ) : (
        ""
      )}
      {p.certificateHref ? (
        <p>
          <a class="button" href={p.certificateHref}>
            Download the certificate
          </a>{" "}
          {p.hostedHref ? (
            <a href={p.hostedHref} target="_blank" rel="noopener">
              Hosted certificate link
            </a>
          ) : (
            ""
          )}{" "}
          {p.verifyHref ? <a href={p.verifyHref}>Public verification page</a> : ""}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export function PolicyDetail(props: { policy: PolicyView; children?: Children }) {
  const p = props.policy;
  return (
    <section>
      <h1 safe>{p.title}</h1>
      <p class="muted">
        <small>
          Reference <span safe>{p.reference}</span>
        </small>
      </p>
      {p.mode === "test" ? <p class="notice">Test mode: a specimen, no cover, nothing billed.</p> : ""}
      <PolicyStatusBlock policy={p} />
      {p.claimHref || p.financeHref || p.changeHref || p.decideChangeHref || p.cancelHref || p.reinstateHref || p.renewHref ? (
        <p>
          {p.claimHref ? (
            <a class="button" href={p.claimHref}>
              Make a claim
            </a>
          ) : (
            ""
          )}{" "}
          {p.financeHref ? (
            <a class="button secondary" href={p.financeHref}>
              Finance the premium
            </a>
          ) : (
            ""
          )}{" "}
          {p.decideChangeHref ? (
            <a class="button" href={p.decideChangeHref}>
              Decide the change
            </a>
          ) : (
            ""
          )}{" "}
          {p.changeHref ? (
            <a class="button secondary" href={p.changeHref}>
              Change the policy
            </a>
          ) : (
            ""
          )}{" "}
          {p.cancelHref ? (
            <a class="button secondary" href={p.cancelHref}>
              Cancel the policy
            </a>
          ) : (
            ""
          )}{" "}
          {p.reinstateHref ? (
            <a class="button secondary" href={p.reinstateHref}>
              Reinstate the policy
            </a>
          ) : (
            ""
          )}{" "}
          {p.renewHref ? (
            <a class="button secondary" href={p.renewHref}>
              Renew the policy
            </a>
          ) : (
            ""
          )}
        </p>
      ) : (
        ""
      )}
      {props.children}
      {p.renewal ? (
        <p class="notice">
          Renewed: policy{" "}
          <a href={p.renewal.href} safe>
            {p.renewal.reference}
          </a>{" "}
          continues the cover.
        </p>
      ) : (
        ""
      )}
      {p.renews ? (
        <p class="muted">
          Renews policy{" "}
          <a href={p.renews.href} safe>
            {p.renews.reference}
          </a>
          .
        </p>
      ) : (
        ""
      )}
      <dl>
        <dt>Product</dt>
        <dd safe>{p.productName}</dd>
        <dt>Insured</dt>
        <dd>
          <a href={p.consumerHref} safe>
            {p.consumerName}
          </a>
        </dd>
        <dt>Premium</dt>
        <dd safe>{naira(p.premiumKobo)}</dd>
        {/* "Cover period": a device's certificate lines (printed below) have a "Cover" of their own, what is covered. */}
        <dt>Cover period</dt>
        <dd safe>{coverPeriod(p.coverStart, p.coverEnd)}</dd>
        <dt>Requested</dt>
        <dd safe>{dateTime(p.createdAt)}</dd>
        {p.printed.map(([label, value]) => (
          <>
            <dt safe>{label}</dt>
            <dd safe>{value}</dd>
          </>
        ))}
      </dl>
      {p.changes?.length ? <ChangeHistory rows={p.changes} /> : ""}
    </section>
  );
}
