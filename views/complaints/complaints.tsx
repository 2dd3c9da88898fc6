/** The complaints pages (src/modules/complaints): the lists, the partner's form, a complaint's page with the actions its reader may take. */
import { Badge, type Column, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";
import { type DetailRow, Details, type FieldSpec, Fields, FormSection, namesOf, optionsOf, RecordHeading } from "../shared-forms/record";

export type Tone = "ok" | "wait" | "bad" | "info";

/** A deadline in words: "Acknowledge by" "3 Dec 2026: 2 days left", with its tone. */
export interface DueView {
  label: string;
  text: string;
  tone: Tone;
}

export interface ComplaintRowView {
  complaintNo: string;
  href: string;
  partnerName?: string;
  complainant: string;
  category: string;
  status: string;
  tone: Tone;
  received: string;
  due?: DueView;
}

const DueText = (props: { due?: DueView }) =>
  props.due ? (
    <>
      <span class="muted" safe>
        {props.due.label}
      </span>{" "}
      <Badge tone={props.due.tone} text={props.due.text} />
    </>
  ) : (
    ""
  );

/** A list of complaints: open first, by what is due first (the desk), or the partner's own. */
export function ComplaintList(props: { title: string; rows: readonly ComplaintRowView[]; withPartner?: boolean; newHref?: string; intro: string }) {
  const columns: Column[] = ["Complaint", props.withPartner && "Partner", "Complainant", "About", "Status", "Received", "Due"];
  return (
    <section>
      <h1 safe>{props.title}</h1>
      <p class="muted" safe>
        {props.intro}
      </p>
      {props.newHref ? (
        <p>
          <a class="button" href={props.newHref}>
            File a complaint
          </a>
        </p>
      ) : (
        ""
      )}
      <Table columns={columns} count={props.rows.length} empty="No complaints yet." caption={props.title} stacked>
        {props.rows.map((r) => (
          <tr>
            <td>
              <a href={r.href} safe>
                {r.complaintNo}
              </a>
            </td>
            {props.withPartner ? <td safe>{r.partnerName ?? ""}</td> : ""}
            <td safe>{r.complainant}</td>
            <td safe>{r.category}</td>
            <td>
              <Badge tone={r.tone} text={r.status} />
            </td>
            <td safe>{r.received}</td>
            <td>
              <DueText due={r.due} />
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

const FILE_FIELDS = (categories: Record<string, string>): FieldSpec[] => [
  { name: "complainant.name", label: "Complainant's name", required: true, autocomplete: "off" },
  { name: "complainant.email", label: "Complainant's e-mail", kind: "email", hint: "An e-mail or a phone number (or both), to send the answer to." },
  { name: "complainant.phone", label: "Complainant's phone", kind: "phone" },
  { name: "category", label: "What the complaint is about", kind: "select", options: optionsOf(categories), required: true },
  { name: "description", label: "The complaint", kind: "textarea", required: true, hint: "In the complainant's words: what happened and what they ask for." },
  { name: "policy", label: "Policy number", hint: "Optional: the policy it concerns (its number or your transaction reference)." },
  { name: "claimNo", label: "Claim number", hint: "Optional: the claim it concerns, e.g. CLM-2026-7K3M9Q2XAB." },
  { name: "reference", label: "Your reference", hint: "Optional: your own reference, so that sending the form twice files one complaint." },
];

/** How many files the forms take at a time. */
export const COMPLAINT_DOCUMENT_INPUTS = 3;

const DocumentInputs = (props: { problem?: FormProblem }) => (
  <>
    {Array.from({ length: COMPLAINT_DOCUMENT_INPUTS }, (_, i) => (
      <Input
        name={`documents.${i}`}
        label={`Document ${i + 1}`}
        kind="document"
        problem={props.problem}
        hint={i === 0 ? "Optional: PDF, JPEG, PNG or WebP." : undefined}
      />
    ))}
  </>
);

const documentInputNames = Array.from({ length: COMPLAINT_DOCUMENT_INPUTS }, (_, i) => `documents.${i}`);

/** The partner's form: a complaint for a customer. */
export function ComplaintForm(props: { values: FormValues; problem?: FormProblem; csrf: string; categories: Record<string, string> }) {
  const fields = FILE_FIELDS(props.categories);
  return (
    <FormSection
      id="complaint-form"
      title="File a complaint"
      summary="For a customer who complains to you about their insurance: the insurer must acknowledge it and answer within the deadlines shown on its page."
      problem={props.problem}
      inputs={[...namesOf(fields), ...documentInputNames]}
    >
      <HxForm action="/portal/complaints" target="#complaint-form" csrf={props.csrf} files>
        <Fields fields={fields} values={props.values} problem={props.problem} />
        <DocumentInputs problem={props.problem} />
        <button type="submit">File the complaint</button>
      </HxForm>
    </FormSection>
  );
}

export interface ComplaintPageView {
  complaintNo: string;
  status: string;
  tone: Tone;
  partnerName?: string;
  details: DetailRow[];
  description: string;
  clock: DueView[];
  history: { status: string; note?: string; by: string; at: string }[];
  notes: { heading: string; body: string }[];
  documents: { name: string; href: string; size: string }[];
  resolution?: { outcome: string; redress: string; text: string; letterHref: string };
}

/** What the page's reader may do: the operator's actions, or the partner's. */
export interface ComplaintActions {
  csrf: string;
  acknowledge?: string;
  start?: string;
  resolve?: string;
  note?: string;
  add?: string;
  withdraw?: string;
  outcomes?: Record<string, string>;
  values?: FormValues;
  problem?: FormProblem;
  done?: string;
}

/** A complaint's page. */
export function ComplaintPage(props: { complaint: ComplaintPageView; backHref: string; actions: ComplaintActions }) {
  const c = props.complaint;
  const a = props.actions;
  const values = a.values ?? {};
  return (
    <article id="complaint">
      <RecordHeading backHref={props.backHref} back="← All complaints" id="complaint-title" title="Complaint" number={c.complaintNo} />
      {a.done ? (
        <p class="success" role="status" aria-live="polite" safe>
          {a.done}
        </p>
      ) : (
        ""
      )}
      <ProblemSummary problem={a.problem} inputs={["outcome", "resolution", "redress", "note", ...documentInputNames]} />
      <div class="card">
        <p>
          <Badge tone={c.tone} text={c.status} />
        </p>
        {c.clock.map((due) => (
          <p>
            <DueText due={due} />
          </p>
        ))}
      </div>
      <Details rows={c.details} />
      <h2>The complaint</h2>
      <p class="pre" safe>
        {c.description}
      </p>
      {c.resolution ? (
        <section>
          <h2>Resolution</h2>
          <Details
            rows={[
              ["Outcome", c.resolution.outcome],
              ["Redress", c.resolution.redress],
            ]}
          />
          <p class="pre" safe>
            {c.resolution.text}
          </p>
          <p>
            <a class="button secondary" href={c.resolution.letterHref}>
              Download the resolution letter (PDF)
            </a>
          </p>
        </section>
      ) : (
        ""
      )}
      <div class="actions">
        {a.acknowledge ? (
          <HxForm action={a.acknowledge} target="#complaint" csrf={a.csrf}>
            <button type="submit">Acknowledge</button>
          </HxForm>
        ) : (
          ""
        )}
        {a.start ? (
          <HxForm action={a.start} target="#complaint" csrf={a.csrf}>
            <button type="submit" class="secondary">
              Mark in progress
            </button>
          </HxForm>
        ) : (
          ""
        )}
      </div>
      {a.resolve && a.outcomes ? (
        <section>
          <h2>Resolve</h2>
          <HxForm action={a.resolve} target="#complaint" csrf={a.csrf} confirm="Resolve this complaint and send the letter? It cannot be reopened.">
            <Input name="outcome" label="Outcome" kind="select" options={optionsOf(a.outcomes)} value={values.outcome} problem={a.problem} required />
            <Input name="resolution" label="What was found and what is done" kind="textarea" value={values.resolution} problem={a.problem} required />
            <Input
              name="redress"
              label="Redress (₦)"
              kind="number"
              value={values.redress}
              problem={a.problem}
              hint="Money paid to the complainant, if any. Leave blank for none."
            />
            <button type="submit">Resolve and write the letter</button>
          </HxForm>
        </section>
      ) : (
        ""
      )}
      {a.add ? (
        <section>
          <h2>Add information</h2>
          <HxForm action={a.add} target="#complaint" csrf={a.csrf} files>
            <Input name="note" label="What to add" kind="textarea" value={values.note} problem={a.problem} required />
            <DocumentInputs problem={a.problem} />
            <button type="submit">Add</button>
          </HxForm>
        </section>
      ) : (
        ""
      )}
      {a.note ? (
        <section>
          <h2>Internal note</h2>
          <HxForm action={a.note} target="#complaint" csrf={a.csrf} files>
            <Input name="note" label="Note (the partner does not see it)" kind="textarea" value={values.note} problem={a.problem} required />
            <DocumentInputs problem={a.problem} />
            <button type="submit" class="secondary">
              Add the note
            </button>
          </HxForm>
        </section>
      ) : (
        ""
      )}
      {a.withdraw ? (
        <HxForm action={a.withdraw} target="#complaint" csrf={a.csrf} confirm="Withdraw this complaint? The customer no longer pursues it.">
          <button type="submit" class="secondary">
            Withdraw the complaint
          </button>
        </HxForm>
      ) : (
        ""
      )}
      {c.notes.length ? (
        <section>
          <h2>Notes and information added</h2>
          {c.notes.map((n) => (
            <div class="card">
              <p class="muted" safe>
                {n.heading}
              </p>
              <p class="pre" safe>
                {n.body}
              </p>
            </div>
          ))}
        </section>
      ) : (
        ""
      )}
      {c.documents.length ? (
        <section>
          <h2>Documents</h2>
          <ul>
            {c.documents.map((d) => (
              <li>
                <a href={d.href} safe>
                  {d.name}
                </a>{" "}
                <span class="muted" safe>
                  {d.size}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        ""
      )}
      <h2>History</h2>
      <Table columns={["Status", "When", "By", "Note"]} caption="History">
        {c.history.map((h) => (
          <tr>
            <td safe>{h.status}</td>
            <td safe>{h.at}</td>
            <td safe>{h.by}</td>
            <td safe>{h.note ?? ""}</td>
          </tr>
        ))}
      </Table>
    </article>
  );
}
