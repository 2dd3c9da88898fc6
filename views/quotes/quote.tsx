import type { FormEntry } from "../../src/products/types";
import { naira } from "../format";
import { type FormProblem, type FormValues, HxForm, Input, ProblemSummary, ProductFields } from "../portal/ui";

interface ConsumerChoice {
  wireId: string;
  name: string;
}

/** The consumers a clerk picks from: the newest first, narrowed by a search. */
export interface ConsumerChoices {
  /** The search as typed (name, phone, e-mail); empty: the newest consumers. */
  search: string;
  options: ConsumerChoice[];
  /** How many of the options the search found (the consumer already chosen is listed besides). */
  found: number;
  /** More consumers match than are listed. */
  more: boolean;
}

/** What the list holds, in words, below it. */
function choicesText({ search, found, more }: ConsumerChoices): string {
  const quoted = `“${search}”`;
  if (!search) return more ? `The newest ${found} consumers are listed: search to find any other.` : "";
  if (!found) return `No consumer matches ${quoted}: try part of the name, the phone number or the e-mail.`;
  if (more) return `The newest ${found} consumers matching ${quoted} are listed: add to the search to narrow them.`;
  return `${found} ${found === 1 ? "consumer matches" : "consumers match"} ${quoted}, newest first.`;
}

/**
 * The search that finds the consumer to quote for (name, phone as typed, e-mail): htmx narrows the
 * list as it is typed; without JavaScript it is a GET of this page. Outside the quote's form, which
 * it must not send.
 */
function ConsumerSearch(props: { search: string; product?: string }) {
  return (
    <form class="search" role="search" action="/portal/quote" method="get">
      <label for="consumer-q">Find the consumer by name, phone or e-mail</label>
      <input
        id="consumer-q"
        type="search"
        name="q"
        value={props.search}
        hx-get="/portal/quote/consumers"
        hx-trigger="input changed delay:300ms, search"
        hx-target="#consumer-choice"
        hx-swap="outerHTML"
        hx-include="#f-consumer"
        hx-indicator="#loading"
      />
      {props.product ? <input type="hidden" name="product" value={props.product} /> : ""}
      <button type="submit" class="secondary">
        Find
      </button>
    </form>
  );
}

/** The consumer select with what it lists in words (what a search swaps in). */
export function ConsumerPicker(props: { choices: ConsumerChoices; value?: string; problem?: FormProblem }) {
  const text = choicesText(props.choices);
  return (
    <div id="consumer-choice">
      <Input
        name="consumer"
        label="Consumer"
        kind="select"
        required
        value={props.value}
        options={props.choices.options.map((c) => ({ value: c.wireId, label: c.name }))}
        hint="Register consumers first on the Consumers page."
        problem={props.problem}
      />
      <p class="muted" role="status" safe>
        {text}
      </p>
    </div>
  );
}

/** Quote and issue on one page: pick a product, see the premium as fields change, then issue. */
export function QuotePage(props: {
  products: { value: string; label: string }[];
  product?: string;
  quoteEntries: readonly FormEntry[];
  policyEntries: readonly FormEntry[];
  values: FormValues;
  premium?: { kobo: number } | { problem: FormProblem };
  consumers: ConsumerChoices;
  problem?: FormProblem;
  mode: "test" | "live";
  csrf: string;
}) {
  const inputs = ["product", "consumer", "id", "webHook", ...props.quoteEntries.map((e) => e.path), ...props.policyEntries.map((e) => e.path)];
  return (
    <section id="quote-page">
      <h1>Quote &amp; issue</h1>
      <ConsumerSearch search={props.consumers.search} product={props.product} />
      <HxForm action="/portal/quote/issue" target="#quote-page" files csrf={props.csrf}>
        {/* A choice that changes the form (the product, a family plan…) re-draws it with what was typed. */}
        <div
          hx-post="/portal/quote/form"
          hx-trigger="change from:.redraws"
          hx-target="#quote-page"
          hx-swap="outerHTML"
          hx-include="closest form"
          hx-encoding="multipart/form-data"
          hx-sync="closest form:replace"
        ></div>
        <ConsumerPicker choices={props.consumers} value={props.values.consumer} problem={props.problem} />
        <Input name="product" label="Product" kind="select" required value={props.product} options={props.products} problem={props.problem} redraws />
        {props.product ? (
          <>
            <fieldset>
              <legend>Quote</legend>
              <ProductFields entries={props.quoteEntries} values={props.values} />
              <div
                id="premium"
                aria-live="polite"
                hx-target="this"
                hx-swap="innerHTML"
                hx-post="/portal/quote/premium"
                hx-trigger="change from:#quote-page, keyup changed delay:400ms from:#quote-page"
                hx-include="closest form"
                hx-encoding="multipart/form-data"
              >
                <Premium premium={props.premium} />
              </div>
            </fieldset>
            <fieldset>
              <legend>Issue the policy</legend>
              <p class="muted">
                {props.mode === "live"
                  ? "LIVE: the premium is taken from your wallet and the policy goes to the insurer. You see the premium and confirm it before anything is paid."
                  : "Test mode: a specimen policy is approved at once; nothing is billed."}
              </p>
              <ProblemSummary problem={props.problem} inputs={inputs} />
              <Input
                name="id"
                label="Transaction reference"
                required
                value={props.values.id}
                hint="Your own unique reference; a UUID is filled in for you."
                problem={props.problem}
              />
              <ProductFields entries={props.policyEntries} values={props.values} problem={props.problem} />
              <Input
                name="webHook"
                label="Webhook URL for this policy"
                value={props.values.webHook}
                hint="Optional: where to send this policy's status changes."
                problem={props.problem}
              />
              <button type="submit">Issue policy</button>
            </fieldset>
          </>
        ) : (
          <p class="muted">Choose a product to see its quote and policy fields.</p>
        )}
      </HxForm>
    </section>
  );
}

/** The live premium, or why there is none yet. */
export function Premium(props: { premium?: { kobo: number } | { problem: FormProblem } }) {
  const p = props.premium;
  if (!p) return <p class="muted">Fill in the quote fields to see the premium.</p>;
  if ("problem" in p)
    return (
      <p class="muted" safe>
        {p.problem.message}
      </p>
    );
  return (
    <p class="premium">
      Premium: <strong safe>{naira(p.kobo)}</strong>
    </p>
  );
}
