import { Layout } from "../../views/layout";
import { Table } from "../../views/portal/ui";
import type { CommandExample, DocumentedError } from "../http/registry";
import { COMMON_REFUSALS, envelope, executionFeedback } from "./common";
import { fieldRows } from "./fields";
import { type JsonSchema, jsonSchemaOf } from "./json-schema";
import { type CommandReference, type Definition, exampleAnswer, exampleEnvelope, type ProductEntry, type Reference, senderOf } from "./model";
import { dependenciesOf, ENVIRONMENT, GENERATED } from "./placeholders";

const json = (value: unknown) => JSON.stringify(value, null, 2);
const exampleAnchor = (name: string) => `example-${name}`;

/** A schema's fields as a table; `caption` names it for screen readers. */
function FieldsTable(props: { schema: JsonSchema; caption: string }) {
  const rows = fieldRows(props.schema);
  if (!rows.length) return <p class="muted">No fields.</p>;
  return (
    <Table columns={["Field", "Type", "Required", "Rule", "Description"]} caption={props.caption}>
      {rows.map((row) => (
        <tr>
          <th scope="row">
            <code safe>{row.name}</code>
          </th>
          <td safe>{row.type}</td>
          <td>{row.required ? "yes" : "no"}</td>
          <td safe>{row.rule}</td>
          <td safe>{row.description}</td>
        </tr>
      ))}
    </Table>
  );
}

function ErrorsTable(props: { errors: readonly DocumentedError[]; caption: string }) {
  if (!props.errors.length) return <p class="muted">Only the refusals common to every command.</p>;
  return (
    <Table columns={["id_v4", "elbrtn", "When"]} caption={props.caption}>
      {props.errors.map((error) => (
        <tr>
          <th scope="row" safe>
            {String(error.status)}
          </th>
          <td>
            <code safe>{error.elbrtn}</code>
          </td>
          <td safe>{error.when ?? ""}</td>
        </tr>
      ))}
    </Table>
  );
}

function sentWith(example: CommandExample, definition: Definition): string {
  const sender = senderOf(example, definition) === "admin" ? "the operator's administrator account" : "a partner";
  return `Sent by ${sender} with a ${example.key ?? "test"} key.`;
}

function Example(props: { example: CommandExample; definition: Definition }) {
  const { example, definition } = props;
  const after = dependenciesOf(example);
  return (
    <article id={exampleAnchor(example.name)} aria-labelledby={`${exampleAnchor(example.name)}-title`}>
      <h5 id={`${exampleAnchor(example.name)}-title`}>
        <span safe>{example.title}</span>{" "}
        <span class="muted">
          ({example.refusal ? "refused" : "answered"} · <code safe>{example.name}</code>)
        </span>
      </h5>
      <p class="muted">
        <span safe>{sentWith(example, definition)}</span>
        {after.length ? (
          <>
            {" "}
            Runs after:{" "}
            {after.map((name, i) => (
              <>
                {i ? ", " : ""}
                <a href={`#${exampleAnchor(name)}`} safe>
                  {name}
                </a>
              </>
            ))}
            .
          </>
        ) : (
          ""
        )}
      </p>
      <p>Request</p>
      {/* Focusable, so a keyboard can scroll a long line into view. */}
      <pre tabindex="0">
        <code safe>{json(exampleEnvelope(example, definition))}</code>
      </pre>
      <p>Response</p>
      <pre tabindex="0">
        <code safe>{json(exampleAnswer(example))}</code>
      </pre>
    </article>
  );
}

function Seed(props: { command: CommandReference }) {
  const { seed, definition } = props.command;
  if (seed.kind === "none") return <p>No seed: send none (one sent is not read).</p>;
  if (seed.kind === "schema") return <FieldsTable schema={seed.schema} caption={`Seed fields of ${definition.grammar}`} />;
  return (
    <p>
      The seed depends on the product: see each product's {seed.variants.some((v) => v.cmmnd) ? "quote" : "policy"} fields under{" "}
      {seed.variants.map((v, i) => (
        <>
          {i ? ", " : ""}
          <a href={`#product-${v.key}`} safe>
            {v.key}
          </a>
        </>
      ))}
      .
    </p>
  );
}

function Command(props: { command: CommandReference }) {
  const { definition, slug, answer } = props.command;
  return (
    <section id={slug} aria-labelledby={`${slug}-title`}>
      <h3 id={`${slug}-title`}>
        <code safe>{definition.grammar}</code>
      </h3>
      <p safe>{definition.summary}</p>
      <p>
        Who: <strong>{definition.who === "admin" ? "the operator's administrator account only" : "a partner"}</strong>
        {definition.needsEnrichment ? " whose account has enrichment activated" : ""}.
      </p>
      <h4>Seed</h4>
      <Seed command={props.command} />
      <h4>Answer</h4>
      <p class="muted">Besides exctnFdbck.</p>
      <FieldsTable schema={answer} caption={`Answer fields of ${definition.grammar}`} />
      <h4>Refusals</h4>
      <ErrorsTable errors={definition.errors} caption={`Refusals of ${definition.grammar}`} />
      <h4>Examples</h4>
      {definition.examples.map((example) => (
        <Example example={example} definition={definition} />
      ))}
    </section>
  );
}

const DELIVERY: Record<string, string> = {
  inline: "in the status answer as crtfct (base64)",
  hosted: "as a hosted link, certUrl",
  policyNo: "as the policy number; the document in the portal and at the verification page",
};

function Product(props: { product: ProductEntry }) {
  const { product } = props;
  return (
    <section id={product.slug} aria-labelledby={`${product.slug}-title`}>
      <h3 id={`${product.slug}-title`}>
        <span safe>{product.name}</span> <code safe>{product.code}</code>
        {product.deprecated ? <span class="badge badge-wait"> deprecated</span> : ""}
      </h3>
      <p>
        <span safe>{product.familyName}</span>. Premium (prmm) in {product.premiumUnit === "kobo" ? "kobo" : "whole naira"}. Certificate:{" "}
        <span safe>{`${product.certificate.type.toUpperCase()}, ${DELIVERY[product.certificate.delivery] ?? product.certificate.delivery}`}</span>.
      </p>
      <p>
        Consumer fields a policy needs (spec 2.3): individual <code safe>{product.consumerFields.h.join(", ")}</code>; organisation{" "}
        <code safe>{product.consumerFields.o.join(", ")}</code>.
      </p>
      <h4>Quote seed</h4>
      <p>
        <code safe>{`dump ipck_${product.code}*PRMM`}</code>
      </p>
      <FieldsTable schema={product.quote} caption={`Quote fields of ${product.code}`} />
      <h4>Policy seed</h4>
      <p>
        <code>{"entt_<consumer_id>: insure"}</code>
      </p>
      <FieldsTable schema={product.insure} caption={`Policy fields of ${product.code}`} />
    </section>
  );
}

/** GET /docs: the command reference, rendered from the registry and the product families. */
export function ReferencePage(props: { reference: Reference; definitions: readonly Definition[] }) {
  const { commands, products } = props.reference;
  const placeholders: [string, string][] = [
    ...Object.entries(ENVIRONMENT).map(([name, means]): [string, string] => [`{{${name}}}`, means]),
    ["{{<example>.<field>}}", "That field of the named example's answer: run that example first"],
    ["{{today}}, {{today+N}}, {{today-N}}", "A date N days from today, YYYY-MM-DD in Nigerian time"],
    ...Object.entries(GENERATED).map(([name, { means }]): [string, string] => [`{{${name}}}`, `In answers: ${means}`]),
  ];
  return (
    <Layout title="Command reference · Partner command service">
      <h1>Command reference</h1>
      <p>
        Every command is <code>POST /</code> with the JSON envelope below; every answer is HTTP 200 with the outcome in <code>exctnFdbck</code>. This page and
        the <a href="/openapi.json">OpenAPI 3.1 document</a> are generated from the service's own command registry, and every example on it is run against the
        service by its tests.
      </p>
      <nav aria-labelledby="contents">
        <h2 id="contents">Contents</h2>
        <ul>
          <li>
            <a href="#envelope">The envelope</a>, <a href="#feedback">exctnFdbck</a>, <a href="#placeholders">placeholders</a>,{" "}
            <a href="#common-refusals">refusals common to every command</a>
          </li>
          <li>
            <a href="#commands">Commands</a>
          </li>
          <li>
            <a href="#products">Products</a>
          </li>
        </ul>
      </nav>

      <section id="envelope" aria-labelledby="envelope-title">
        <h2 id="envelope-title">The envelope (spec 2.1)</h2>
        <FieldsTable schema={jsonSchemaOf(envelope, "input")} caption="Envelope fields" />
      </section>
      <section id="feedback" aria-labelledby="feedback-title">
        <h2 id="feedback-title">exctnFdbck (spec 2.2)</h2>
        <FieldsTable schema={jsonSchemaOf(executionFeedback, "output")} caption="exctnFdbck fields" />
      </section>
      <section id="placeholders" aria-labelledby="placeholders-title">
        <h2 id="placeholders-title">Placeholders in the examples</h2>
        <p>
          Replace each <code>{"{{…}}"}</code> before sending. In refusals, <code>{"<…>"}</code> stands for the part of the wording that varies.
        </p>
        <Table columns={["Placeholder", "Stands for"]} caption="Placeholders">
          {placeholders.map(([name, means]) => (
            <tr>
              <th scope="row">
                <code safe>{name}</code>
              </th>
              <td safe>{means}</td>
            </tr>
          ))}
        </Table>
      </section>
      <section id="common-refusals" aria-labelledby="common-refusals-title">
        <h2 id="common-refusals-title">Refusals common to every command</h2>
        <p>
          A refusal is <code>exctnFdbck.id</code> 55: nothing was stored; fix the request rather than repeat it. At capacity the answer is id 35 with id_v4 503:
          nothing was stored, and the same request may be sent again after 2, 4 and 8 seconds.
        </p>
        <ErrorsTable errors={Object.values(COMMON_REFUSALS)} caption="Refusals common to every command" />
      </section>

      <section id="commands" aria-labelledby="commands-title">
        <h2 id="commands-title">Commands</h2>
        <Table columns={["Command", "Who", "What it does"]} caption="Every command">
          {commands.map(({ definition, slug }) => (
            <tr>
              <th scope="row">
                <a href={`#${slug}`}>
                  <code safe>{definition.grammar}</code>
                </a>
              </th>
              <td>{definition.who === "admin" ? "administrator" : "partner"}</td>
              <td safe>{definition.summary}</td>
            </tr>
          ))}
        </Table>
        {commands.map((command) => (
          <Command command={command} />
        ))}
      </section>

      <section id="products" aria-labelledby="products-title">
        <h2 id="products-title">Products</h2>
        <Table columns={["Code", "Product"]} caption="Every product">
          {products.map((product) => (
            <tr>
              <th scope="row">
                <a href={`#${product.slug}`}>
                  <code safe>{product.code}</code>
                </a>
              </th>
              <td safe>{product.name}</td>
            </tr>
          ))}
        </Table>
        {products.map((product) => (
          <Product product={product} />
        ))}
      </section>
    </Layout>
  );
}
