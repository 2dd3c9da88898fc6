import { day } from "../format";
import { type FormProblem, type FormValues, HxForm, Input, ProblemSummary } from "../portal/ui";

/** What a cancellation from the chosen day would give back, as the form shows it before anyone confirms. */
export interface RefundPreview {
  /** "₦9,801.37 back to the wallet" (or that a test policy moves no money). */
  refund: string;
  /** The rule as it applied. */
  explanation: string;
  /** "The cover stops now" or "The last day of cover is 30 Nov 2026". */
  coverEnds: string;
}

export interface CancelFormProps {
  /** The policy's number (or product) and whose it is (policyName). */
  policyName: string;
  /** The reference the cancellation is stored under, drawn with the form: sending the form again is a repeat, not a second cancellation. */
  changeReference: string;
  productName: string;
  /** The policy page, where Back goes. */
  backHref: string;
  /** What the browser's confirmation says beside the question: what happens, who is told, how it can be undone. */
  consequence: string;
  action: string;
  /** Re-computes the preview for the chosen day (htmx, on change). */
  previewHref: string;
  reasons: readonly { value: string; label: string }[];
  today: string;
  lastDay: string;
  csrf: string;
  values: FormValues;
  problem?: FormProblem;
  preview?: RefundPreview;
}

/** The refund for the chosen day, or why that day cannot be chosen: swapped in as the day changes. */
export function RefundPreviewBlock(props: { preview?: RefundPreview; problem?: string }) {
  return (
    <div id="refund-preview" class="card" aria-live="polite">
      <h2>What comes back</h2>
      {props.preview ? (
        <>
          <p>
            <strong safe>{props.preview.refund}</strong>
          </p>
          <p safe>{props.preview.explanation}</p>
          <p class="muted" safe>
            {props.preview.coverEnds}
          </p>
        </>
      ) : (
        <p class="problem" safe>
          {props.problem ?? "Choose the first day without cover to see the refund."}
        </p>
      )}
    </div>
  );
}

/** Cancel a policy: the day, the reason, a note; the refund shown before the confirmation. */
export function CancelForm(props: CancelFormProps) {
  return (
    <section id="cancel">
      <h1>
        Cancel policy <span safe>{props.policyName}</span>
      </h1>
      <p safe>{props.productName}</p>
      <ProblemSummary problem={props.problem} inputs={["effectiveDate", "reason", "note"]} />
      <HxForm action={props.action} target="#cancel" confirm={`Cancel policy ${props.policyName}? ${props.consequence}`} csrf={props.csrf}>
        <input type="hidden" name="id" value={props.changeReference} />
        <div hx-get={props.previewHref} hx-trigger="change from:#f-effectiveDate" hx-include="#f-effectiveDate" hx-target="#refund-preview" hx-swap="outerHTML">
          <Input
            name="effectiveDate"
            label="First day without cover"
            kind="date"
            value={props.values.effectiveDate ?? props.today}
            required
            problem={props.problem}
            hint={`Today (${day(props.today)}) or a later day, up to ${day(props.lastDay)}. Today stops the cover at once.`}
          />
        </div>
        <Input name="reason" label="Reason" kind="select" options={props.reasons} value={props.values.reason} required problem={props.problem} />
        <Input
          name="note"
          label="Note"
          kind="textarea"
          value={props.values.note}
          problem={props.problem}
          hint="A few words for the record; needed when the reason is another one."
        />
        <RefundPreviewBlock preview={props.preview} />
        <p>
          <button type="submit" class="danger">
            Cancel the policy
          </button>{" "}
          <a href={props.backHref}>Keep it</a>
        </p>
      </HxForm>
    </section>
  );
}
