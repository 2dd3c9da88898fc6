import { dateTime, waitingFor } from "../format";
import { PolicyStatusBlock, type PolicyView } from "../policies/policies";
import { type FormProblem, type FormValues, HxForm, Input, ProblemSummary } from "../portal/ui";

/** A policy waiting for the operator's review: its status (which reloads itself while pending), then the desk. */
export function ReviewPage(props: { policy: PolicyView; desk: ReviewDeskProps }) {
  return (
    <section>
      <h1>
        Policy <span safe>{props.policy.reference}</span>
      </h1>
      <PolicyStatusBlock policy={props.policy} />
      <ReviewDesk {...props.desk} />
    </section>
  );
}

export interface ReviewDeskProps {
  policyId: string;
  reference: string;
  partnerName: string;
  createdAt: Date;
  now: Date;
  /** The product in words. */
  productName: string;
  consumerName: string;
  /** The consumer's own page. */
  consumerHref: string;
  /** The premium and the sum insured, for the confirmation: "Premium ₦95,000.00, sum insured ₦5,000,000.00". */
  amounts: string;
  /** What is insured, in words: the sum insured, the premium, the cover and the policy's own lines (goods value, voyage, vehicle…). */
  risk: [label: string, value: string][];
  consumerLines: [label: string, value: string][];
  /** The consumer's documents: images are shown, PDFs open in the browser. */
  documents: { label: string; href: string; image: boolean }[];
  /** A vehicle policy's registry check, loaded after the page (a first lookup takes seconds). */
  registryHref?: string;
  /** The next policy waiting in the queue, if any. */
  nextHref?: string;
  csrf: string;
  values: FormValues;
  problem?: FormProblem;
}

/**
 * An underwriter's desk for one pending policy, in the order it is judged: who asks, the risk (what is
 * insured, for how much, for how long), the vehicle checks, the consumer and their documents, then the
 * decision.
 */
export function ReviewDesk(props: ReviewDeskProps) {
  const action = `/admin/policies/${props.policyId}/review`;
  return (
    <section id="review" class="card" aria-labelledby="review-title">
      <h2 id="review-title" tabindex="-1" data-focus>
        Your review
      </h2>
      <p>
        Asked by <strong safe>{props.partnerName}</strong> on <span safe>{dateTime(props.createdAt)}</span>: waiting{" "}
        <span safe>{waitingFor(props.createdAt, props.now)}</span>.
      </p>
      <h3>The risk</h3>
      <dl class="risk">
        <dt>Product</dt>
        <dd safe>{props.productName}</dd>
        <dt>Insured</dt>
        <dd>
          <a href={props.consumerHref} safe>
            {props.consumerName}
          </a>
        </dd>
        {props.risk.map(([label, value]) => (
          <>
            <dt safe>{label}</dt>
            <dd safe>{value}</dd>
          </>
        ))}
      </dl>
      {props.registryHref ? (
        <>
          <h3>Vehicle checks</h3>
          <div id="registry-check" hx-get={props.registryHref} hx-trigger="load" hx-swap="outerHTML">
            <p class="muted">Checking the vehicle registry and the VIN…</p>
          </div>
        </>
      ) : (
        ""
      )}
      <h3>Consumer</h3>
      <dl>
        {props.consumerLines.map(([label, value]) => (
          <>
            <dt safe>{label}</dt>
            <dd safe>{value}</dd>
          </>
        ))}
      </dl>
      <h3>Documents</h3>
      {props.documents.length ? (
        <ul class="documents">
          {props.documents.map((d) => (
            <li>
              {d.image ? <img src={d.href} alt={d.label} loading="lazy" /> : ""}
              <a href={d.href} target="_blank" rel="noopener" safe>
                {`Open ${d.label}${d.image ? "" : " (PDF)"}`}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">The consumer has no documents on file.</p>
      )}
      <h3>Decision</h3>
      <p class="muted">
        Keyboard: <kbd>A</kbd> approves (after you confirm); <kbd>D</kbd> goes to the reason for declining, where <kbd>Enter</kbd> declines (after you confirm)
        and <kbd>Shift</kbd>+<kbd>Enter</kbd> starts a new line
        {props.nextHref ? (
          <>
            ; <kbd>N</kbd> opens the next policy
          </>
        ) : (
          ""
        )}
        . After a decision the next policy in the queue opens.
      </p>
      <ProblemSummary problem={props.problem} inputs={["statusNote"]} />
      <div class="decision">
        <HxForm
          action={action}
          target="#review"
          confirm={`Approve policy ${props.reference}? ${props.amounts}. The partner is told at once and the certificate is issued.`}
          csrf={props.csrf}
        >
          <input type="hidden" name="decision" value="a" />
          <input type="hidden" name="from" value="desk" />
          <button type="submit" data-key="a" aria-keyshortcuts="A">
            Approve
          </button>
        </HxForm>
        <HxForm
          action={action}
          target="#review"
          confirm={`Decline policy ${props.reference}? The partner is told at once, with your reason.`}
          csrf={props.csrf}
        >
          <input type="hidden" name="decision" value="d" />
          <input type="hidden" name="from" value="desk" />
          <Input
            name="statusNote"
            label="Reason for declining"
            kind="textarea"
            value={props.values.statusNote}
            problem={props.problem}
            hint="The partner and the consumer read it. Enter declines; Shift+Enter starts a new line."
            shortcut="d"
            enterSubmits
          />
          <button type="submit" class="danger">
            Decline
          </button>
        </HxForm>
      </div>
      {props.nextHref ? (
        <p>
          <a href={props.nextHref} data-key="n" aria-keyshortcuts="N">
            Next policy in the queue →
          </a>
        </p>
      ) : (
        <p class="muted">No other policy waits for review.</p>
      )}
    </section>
  );
}

const TONE_CLASS = { ok: "success", bad: "problem", wait: "notice" } as const;

/** A vehicle's checks for the desk: the registry's answer and the VIN, each judged against the policy. */
export function VehicleChecks(props: { verdicts: { tone: "ok" | "bad" | "wait"; text: string }[] }) {
  return (
    <div id="registry-check">
      {props.verdicts.map((v) => (
        <p class={TONE_CLASS[v.tone]} safe>
          {v.text}
        </p>
      ))}
    </div>
  );
}
