/**
 * The portal's words for a refusal. The JSON surface's messages are written for integrators: they
 * name wire fields (`seed.insrncDrtn`), JSON types, kobo and commands ("add them with prfl entity").
 * People read the field's label and plain language instead. The rule is the domain's, once; this
 * file only rewords it, with one table of labels and one list of phrasings for every page.
 */

import { sentence } from "../../views/format";
import { formatNaira } from "../core/money";
import { allProductCodes, findProduct, productName } from "../products";
import { consumerForm } from "../products/consumer-form";
import { printNairaFigure } from "../products/shared";
import type { FormEntry } from "../products/types";

/** Labels of the wire fields outside the consumer and product forms: claims, financing, wallet, webhooks, reviews. */
const FIELD_LABELS: Record<string, string> = {
  addtnlFact: "The policy details",
  class: "Consumer type",
  insrncDrtn: "Cover duration",
  id: "Reference",
  amount: "Amount",
  reference: "Reference",
  policy: "Policy",
  claimNo: "Claim number",
  planNo: "Financing plan",
  incidentDate: "Date of the incident",
  description: "Description",
  documents: "Documents",
  approvedAmount: "Approved amount",
  note: "Note",
  status: "Status",
  statusNote: "Reason",
  downPayment: "Down payment",
  installments: "Number of installments",
  frequency: "Frequency",
  firstDueDate: "First installment due",
  paidAt: "Paid on",
  from: "From",
  to: "To",
  url: "URL",
  events: "Events",
  enabled: "Enabled",
  search_type: "Search by",
  value: "Plate or policy number",
  vin: "VIN",
  cursor: "Page",
  email: "E-mail",
  password: "Password",
  name: "Name",
  effectiveDate: "First day without cover",
  reason: "Reason",
  // Complaints (src/modules/complaints).
  "complainant.name": "Complainant's name",
  "complainant.email": "Complainant's e-mail",
  "complainant.phone": "Complainant's phone",
  complaintNo: "Complaint number",
};

let labels: Map<string, string> | undefined;
/** Labels of amounts in naira: a limit on them reads as money. */
const moneyLabels = new Set(["Amount", "Approved amount", "Down payment"]);

/** Every label by wire path: the table above, then the consumer and product forms' own labels (first one wins). */
function labelTable(): Map<string, string> {
  if (labels) return labels;
  labels = new Map(Object.entries(FIELD_LABELS));
  const add = (entries: readonly FormEntry[], prefix = "") => {
    for (const entry of entries) {
      if (entry.kind === "group") {
        if (!labels!.has(entry.path)) labels!.set(entry.path, entry.label);
        add(entry.fields, `${entry.path}.`);
      } else if (!labels!.has(prefix + entry.path)) {
        const label = entry.label.replace(/ \(₦\)$/, "");
        if (label !== entry.label) moneyLabels.add(label);
        labels!.set(prefix + entry.path, label);
      }
    }
  };
  add([...consumerForm("h"), ...consumerForm("o")]);
  for (const code of allProductCodes()) {
    const { family, type } = findProduct(code);
    const forms = family.forms(type);
    add([...forms.quote, ...forms.policy]);
  }
  return labels;
}

/** A wire path as people read it: "seed.addtnlFact.goodsValue" is "Value of the goods", "documents[2]" is "Documents (number 3)". */
export function fieldLabel(wirePath: string): string {
  const path = wirePath.replace(/^seed\./, "");
  const index = /\[(\d+)\]$/.exec(path);
  const bare = path.replace(/\[\d+\]/g, "");
  const table = labelTable();
  const label = table.get(bare) ?? table.get(bare.replace(/^addtnlFact\./, "")) ?? table.get(`addtnlFact.${bare}`) ?? humanise(bare.split(".").at(-1) ?? bare);
  return index ? `${label} (number ${Number(index[1]) + 1})` : label;
}

/** "travelerAge" → "Traveler age": the last resort for a name no table knows. */
const humanise = (name: string) => {
  const words = name
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Whole sentences of the JSON surface with a better one for people, tried in order before the word-by-word rewording. */
const SENTENCES: [RegExp, (...groups: string[]) => string][] = [
  [
    /^seed\.complainant\.email or seed\.complainant\.phone is required\b.*$/,
    () => "Give the complainant's e-mail or phone number (or both): the answer goes there.",
  ],
  [
    /^consumer \S+ lacks (.+), required for (\S+): add them with prfl entity \(same eMail\)$/,
    (fields, code) =>
      `This consumer's details lack what ${productNameOf(code!)} needs: ${listOf(fields!)}. Add them on the consumer's page (register the same e-mail again), then come back.`,
  ],
  [
    /^(?:seed\.)?(statusNote|note) is required to (decline|reject)\b.*$/,
    (_field, action) => `Give a reason: a ${action === "decline" ? "decline" : "rejection"} needs one.`,
  ],
  [/^(.*) must be a JSON number, not a string.*$/, (field) => `${field} must be a number`],
  [/^(.*) must be a JSON integer, not a string.*$/, (field) => `${field} must be a whole number`],
  [/^(.*) is (?:blank|null): omit optional fields entirely.*$/, (field) => `${field} is empty: fill it in or leave it out`],
  [/^seed has unknown fields?: (.*)$/, (fields) => `The form sent something this page does not know (${fields}): reload the page and try again`],
  [/^seed\.note is required with reason "other".*$/, () => "Say why in the note: another reason needs one."],
  [/^consumer not found: .*$/, () => "This consumer was not found among your consumers"],
  [/^request body arrived too slowly: .*$/, () => "Your form took too long to arrive and was not received. Check your connection and send it again."],
  [
    /^policy (\S+) was issued in (test|live) mode: .* this key runs in (?:test|live) mode$/,
    (reference, mode) => `Policy ${reference} is a ${mode} policy: switch the account to ${mode} mode on the Keys page to act on it`,
  ],
];

/** Phrases inside a sentence: integrators' tools and codes become what a person does or reads. */
const PHRASES: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/; top up with wallet topup$/, ": top up the wallet first"],
  [
    /must be in international format with a \+ prefix, e\.g\. \+2348012345678/,
    "must be a Nigerian number such as 0803 123 4567, or start with + and the country code",
  ],
  [
    /must be \+234 followed by 10 digits with no leading zero, e\.g\. \+2348012345678/,
    "must be a Nigerian number such as 0803 123 4567 (or +234 803 123 4567)",
  ],
  [/: enable it with webhook update \(enabled: true\)(?: before replaying| first)$/, ": enable it first"],
  [/: delete one with webhook delete first$/, ": delete one first"],
  [/: see webhook (?:list|deliveries)$/, ""],
  [/ as claim submit returned it/, ""],
  [/ was not returned by prfl entity under these credentials/, " is not one of your consumers"],
  [/ not found: use an id prfl entity returned to you$/, " is not one of your consumers"],
  [/ is invalid: use the id \(or id_uuid\) returned by prfl entity$/, " is not a consumer's id"],
  [/ \(status [a-z]\)/g, ""],
  [/ for an individual consumer \(class h\)/g, " for a person"],
  [/ for an organisation consumer \(class o\)/g, " for an organisation"],
  [/ \(kobo\)/g, ""],
  [/a JSON boolean \(true or false\)/g, "yes or no"],
  [/a JSON (number|integer|object|array)/g, (kind) => (kind === "integer" ? "a whole number" : `a ${kind}`)],
  [/(\d[\d,]*) kobo/g, (kobo) => formatNaira(Number(kobo!.replaceAll(",", "")))],
  [/(\d[\d,]*(?:\.\d+)?) naira/g, (amount) => printNairaFigure(Number(amount!.replaceAll(",", "")))],
  [/medicalTestClearance "true"/g, "a medical test clearance"],
  [/\bseed\.((?:[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*|\[\d+\])*)/g, (path) => fieldLabel(path!)],
  [
    /\b(addtnlFact\.\w+|loanAmount|LoanAmount|travelerAge|nokName|nokRelationship|nokPhone|insrncDrtn|statusNote|eMail|phoneNo)\b/g,
    (name) => fieldLabel(name!),
  ],
  [/\bJSON\b/g, "form"],
];

let wireNames: RegExp | undefined;

/** The wire names people might otherwise read bare ("nokName, nokRelationship", "socialID.type"): camelCase, dotted or snake_case keys of the label table. */
function wireNamePattern(): RegExp {
  if (wireNames) return wireNames;
  const names = new Set<string>();
  for (const key of labelTable().keys()) {
    if (/[A-Z._]/.test(key)) names.add(key);
    const bare = key.replace(/^addtnlFact\./, "");
    if (/[A-Z_]/.test(bare) && !bare.includes(".")) names.add(bare);
  }
  const alternatives = [...names].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.[\]]/g, "\\$&"));
  wireNames = new RegExp(`(?<![\\w.])(?:${alternatives.join("|")})(?![\\w])`, "g");
  return wireNames;
}

function productNameOf(code: string): string {
  try {
    return productName(code);
  } catch {
    return "this product";
  }
}

/** "socialID.type, socialID.id, socialID.image" → "Identity document, Identity number, Scan of the identity document". */
const listOf = (fields: string) =>
  fields
    .split(/,\s*|\s+and\s+/)
    .map((f) => fieldLabel(f.trim()))
    .join(", ");

/** A refusal's message as the portal shows it. */
export function inWords(message: string): string {
  for (const [pattern, better] of SENTENCES) {
    const match = pattern.exec(message);
    if (match) return reword(better(...match.slice(1)));
  }
  return reword(message);
}

function reword(message: string): string {
  let text = message;
  for (const [pattern, replacement] of PHRASES)
    text =
      typeof replacement === "string" ? text.replace(pattern, replacement) : text.replace(pattern, (_all, ...groups) => replacement(...(groups as string[])));
  text = text.replace(wireNamePattern(), (name) => fieldLabel(name));
  // "Amount must be at most 1000000000; received 1000000001": limits on money read as naira.
  text = text.replace(
    /^(.+?) must be (at most|at least|more than|less than) (-?[\d.]+)(?:; received (-?[\d.]+))?/,
    (all, label: string, bound, limit, received) =>
      moneyLabels.has(label)
        ? `${label} must be ${bound} ${printNairaFigure(Number(limit))}${received === undefined ? "" : `; received ${printNairaFigure(Number(received))}`}`
        : all,
  );
  return sentence(text);
}

/** A refusal that only says a field is still empty: a form being filled in is not wrong yet. */
export const isOnlyMissing = (message: string) => / is required$/.test(message);
