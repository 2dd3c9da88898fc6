import type { FormEntry } from "../../src/products/types";
import { type FormProblem, type FormValues, HxForm, Input, ProblemSummary, ProductFields, Table } from "../portal/ui";
import { ChangeHeading, ChangeLines, ChangeRefused } from "./confirm";

/** A change as people read it: what it changes, what it costs, and where it stands. */
export interface ChangeRow {
  /** "Version 2", "Waiting for review", "Declined". */
  state: string;
  when: string;
  /** "Registration plate: ABC123DE → LND456XY", one line per field. */
  changes: readonly string[];
  premium: string;
  note?: string;
}

/** What the change would do, shown before it is confirmed. */
interface ChangePreview {
  lines: readonly (readonly [label: string, value: string])[];
}

export interface ChangeFormProps {
  /** The policy's number (or product) and whose it is (policyName). */
  policyName: string;
  /** The reference the change is stored under, drawn with the form and kept through its preview: confirming twice is a repeat. */
  changeReference: string;
  productName: string;
  backHref: string;
  action: string;
  csrf: string;
  /** The product's fields that may change, filled in with the policy's values. */
  entries: readonly FormEntry[];
  values: FormValues;
  problem?: FormProblem;
  preview?: ChangePreview;
  /** Why the policy cannot be changed now, in words (then there is no form). */
  refusal?: string;
}

/** Change a policy's details: the fields the product lets change, then what it costs, then the confirmation. */
export function ChangeForm(props: ChangeFormProps) {
  const back = <a href={props.backHref}>Back to the policy</a>;
  return (
    <section id="change">
      <ChangeHeading verb="Change" policyName={props.policyName} productName={props.productName} />
      {props.refusal ? (
        <ChangeRefused problem={props.refusal}>{back}</ChangeRefused>
      ) : (
        <>
          <ProblemSummary problem={props.problem} inputs={props.entries.map((e) => e.path)} />
          <HxForm action={props.action} target="#change" csrf={props.csrf}>
            <input type="hidden" name="id" value={props.changeReference} />
            <ProductFields entries={props.entries} values={props.values} problem={props.problem} />
            {props.preview ? (
              <div class="card" aria-live="polite">
                <h2>The change</h2>
                <ChangeLines lines={props.preview.lines} />
                <input type="hidden" name="step" value="confirm" />
                <p>
                  <button type="submit">Confirm the change</button> {back}
                </p>
                <p class="muted">Edited a detail again? Confirming applies the details as they now stand in the form.</p>
              </div>
            ) : (
              <p>
                <input type="hidden" name="step" value="preview" />
                <button type="submit">See what it costs</button> {back}
              </p>
            )}
          </HxForm>
        </>
      )}
    </section>
  );
}

export interface ChangeDecisionProps {
  /** The policy's number (or product) and whose it is (policyName). */
  policyName: string;
  productName: string;
  backHref: string;
  approveAction: string;
  declineAction: string;
  csrf: string;
  change: ChangeRow;
  problem?: FormProblem;
}

/** The operator's decision on a change waiting for review: approve it, or decline it saying why. */
export function ChangeDecision(props: ChangeDecisionProps) {
  return (
    <section id="change">
      <h1>
        Change to policy <span safe>{props.policyName}</span>
      </h1>
      <p safe>{props.productName}</p>
      <ProblemSummary problem={props.problem} inputs={["note"]} />
      <ChangeLines
        lines={[
          ["Asked for", props.change.when],
          ["Changes", props.change.changes.join("; ")],
          ["Premium", props.change.premium],
        ]}
      />
      <HxForm
        action={props.approveAction}
        target="#change"
        csrf={props.csrf}
        confirm={`Approve the change to policy ${props.policyName}? It is in force at once.`}
      >
        <p>
          <button type="submit">Approve the change</button>
        </p>
      </HxForm>
      <HxForm action={props.declineAction} target="#change" csrf={props.csrf}>
        <Input name="note" label="Reason for declining" kind="textarea" required problem={props.problem} hint="The partner reads it." />
        <p>
          <button type="submit" class="secondary">
            Decline the change
          </button>{" "}
          <a href={props.backHref}>Back to the policy</a>
        </p>
      </HxForm>
    </section>
  );
}

/** A policy's changes, oldest first: each certificate version and what made it. */
export function ChangeHistory(props: { rows: readonly ChangeRow[] }) {
  return (
    <section>
      <h2>Changes</h2>
      <Table caption="Changes to the policy" columns={["Version", "Asked for", "What changed", "Premium"]} count={props.rows.length}>
        {props.rows.map((row) => (
          <tr>
            <td safe>{row.state}</td>
            <td safe>{row.when}</td>
            <td>
              {row.changes.map((line) => (
                <div safe>{line}</div>
              ))}
              {row.note ? (
                <div class="muted" safe>
                  {row.note}
                </div>
              ) : (
                ""
              )}
            </td>
            <td safe>{row.premium}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
