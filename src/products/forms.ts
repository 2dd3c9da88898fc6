/**
 * Portal form values → wire seeds. Product families describe their forms (ProductForms); this
 * turns what a browser submits (strings, files) into the seed the JSON surface takes, so both
 * surfaces are validated by the same product rules with the same wording.
 */
import { nigerianPhone } from "../core/validation";
import type { DurationCode } from "./shared";
import type { FormEntry, FormField, FormGroup, ProductForms } from "./types";
import { normalisePlate } from "./vehicle/plate";

const DURATION_LABELS: Record<DurationCode, string> = {
  "7d": "7 days",
  "15d": "15 days",
  "25d": "25 days",
  "30d": "30 days",
  "45d": "45 days",
  "62d": "62 days",
  "92d": "92 days",
  "1m": "1 month",
  "3m": "3 months",
  "6m": "6 months",
  "12m": "12 months",
  "1y": "1 year",
};

/** Select options for a product's durations, in its own order. */
export const durationOptions = (codes: readonly DurationCode[]) => codes.map((value) => ({ value, label: DURATION_LABELS[value] }));

/** The insrncDrtn select of a product sold for `codes`. */
export const durationSelect = (codes: readonly DurationCode[]): FormField => ({
  kind: "select",
  path: "insrncDrtn",
  label: "Cover duration",
  required: true,
  options: durationOptions(codes),
});

/** A naira figure as hints and labels show it: ₦50,000,000. */
export const naira = (amount: number) => `₦${amount.toLocaleString("en-NG")}`;

/** What a browser submitted: field name → value(s). Files arrive already base64-encoded. */
export type SubmittedValues = Record<string, string | undefined>;

/** The input name of a field: its wire path; a group entry's field is "<group path>.<index>.<field path>". */
export const inputName = (path: string, groupIndex?: { group: string; index: number }) =>
  groupIndex ? `${groupIndex.group}.${groupIndex.index}.${path}` : path;

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/**
 * A submitted string as the field's wire type. Blank inputs are left out (the rules then say
 * "is required" where they must be present — never a 406 for a blank). Text that is not a number
 * stays text, so the rules answer with the JSON surface's own words ("must be a JSON number").
 */
export function wireValue(field: FormField, raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value === "") return undefined;
  switch (field.kind) {
    case "number":
    case "integer": {
      // Only plain decimals: Number() would also read "" (a lone "₦") as 0, and "0x10" or "1e5".
      const digits = value.replace(/[,\s₦]/g, "");
      if (!/^-?(\d+\.?\d*|\.\d+)$/.test(digits)) return value;
      // Naira typed, kobo sent: only whole kobo convert (a third decimal is refused by the rules as typed).
      if (field.wireUnit === "kobo") return /\.\d{3,}$/.test(digits) ? value : Math.round(Number(digits) * 100);
      return Number(digits);
    }
    case "phone":
      return nigerianPhone(value);
    case "plate":
      return normalisePlate(value);
    case "checkbox":
      return value === "on" || value === "true";
    case "datetime":
      // <input type="datetime-local"> gives YYYY-MM-DDTHH:MM[:SS]; the wire wants YYYY-MM-DD HH:MM:SS.
      return /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value) ? `${value.replace("T", " ")}${value.length === 16 ? ":00" : ""}` : value;
    default:
      return value;
  }
}

const visible = (entry: FormEntry, values: SubmittedValues) => !entry.showWhen || values[entry.showWhen.path] === entry.showWhen.equals;

/**
 * How many entries of a group were submitted: the highest index with any value, plus one. One
 * entry past `max` is kept so the rules refuse an over-long list in their own words instead of
 * it being cut silently; the bound stops a forged index (items.99999.value) building a huge array.
 */
function groupSize(group: FormGroup, values: SubmittedValues): number {
  let size = 0;
  for (const name of Object.keys(values)) {
    const match = name.startsWith(`${group.path}.`) ? /^(\d+)\./.exec(name.slice(group.path.length + 1)) : null;
    if (match && values[name]?.trim()) size = Math.max(size, Number(match[1]) + 1);
  }
  return Math.min(size, group.max + 1);
}

/** The seed for `entries` from submitted values (hidden fields left out). */
export function seedFromForm(entries: readonly FormEntry[], values: SubmittedValues): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  for (const entry of entries) {
    if (!visible(entry, values)) continue;
    if (entry.kind === "group") {
      const items = Array.from({ length: groupSize(entry, values) }, (_, index) => {
        const item: Record<string, unknown> = {};
        for (const field of entry.fields) {
          const value = wireValue(field, values[inputName(field.path, { group: entry.path, index })]);
          if (value !== undefined) setPath(item, field.path, value);
        }
        return item;
      });
      if (items.length) setPath(seed, entry.path, items);
      continue;
    }
    const value = wireValue(entry, values[entry.path]);
    if (value !== undefined) setPath(seed, entry.path, value);
  }
  return seed;
}

/** The insure seed's product part from a policy form (wire adjustments applied). */
export function policySeedFromForm(forms: ProductForms, values: SubmittedValues): Record<string, unknown> {
  // addtnlFact is sent even when every input is blank, so the rules name the missing field inside it.
  const seed = { addtnlFact: {}, ...seedFromForm(forms.policy, values) };
  return forms.policySeed ? forms.policySeed(seed) : seed;
}

/**
 * The input a refusal is about: its `field` (`seed.addtnlFact.items[1].value`) as the form's input
 * name (`addtnlFact.items.1.value`), so the message is shown next to that input.
 */
export function inputForField(field: string | undefined): string | undefined {
  if (!field) return undefined;
  return field.replace(/^seed\./, "").replace(/\[(\d+)\]/g, ".$1");
}
