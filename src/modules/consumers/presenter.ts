import { inArray } from "drizzle-orm";
import type { ConsumerPolicyRow, ConsumerRow } from "../../../views/consumers/consumers";
import { day } from "../../../views/format";
import type { CsvValue } from "../../core/csv";
import { watTimestamp } from "../../core/time";
import type { Executor } from "../../db/client";
import { productName } from "../../products";
import { consumerForm } from "../../products/consumer-form";
import { profileValues } from "./model";
import { consumers } from "./schema";
import { type ConsumerRecord, wireConsumerId } from "./service";

/** How a consumer is named on every page: a business by its brand, a person by their names. */
export function consumerName(profile: Record<string, unknown>): string {
  const name = (profile.name ?? {}) as Record<string, string | undefined>;
  return name.brand ?? [name.first, name.middle, name.last].filter(Boolean).join(" ");
}

export const consumerRow = (c: ConsumerRecord): ConsumerRow => ({
  id: c.id,
  wireId: wireConsumerId(c.id),
  name: consumerName(c.profile),
  consumerClass: c.class,
  email: c.profile.eMail as string | undefined,
  phone: c.profile.phoneNo as string | undefined,
  documents: c.documents,
  createdAt: c.createdAt,
});

/** The profile lines the detail page shows, in this order, when filled in. */
const LABELS: Record<string, string> = {
  gender: "Gender",
  "dob.date": "Date of birth",
  phoneNo: "Phone",
  eMail: "E-mail",
  "addrss.addrss": "Address",
  mrtlStatus: "Marital status",
  ntnlty: "Nationality",
  stateOfOrigin: "State of origin",
  "socialID.type": "Identity document",
  "socialID.id": "Identity number",
  taxId: "Tax id",
  rc: "RC number",
};

/** A chosen code in the words of its form's option ("f" is "Female", "nidd" "National identity card"). */
const OPTION_TEXT = new Map(
  (["h", "o"] as const).flatMap((consumerClass) =>
    consumerForm(consumerClass).flatMap((entry) =>
      "options" in entry && entry.options ? entry.options.map((o) => [`${entry.path}=${o.value}`, o.label] as const) : [],
    ),
  ),
);

export function profileLines(profile: Record<string, unknown>): [label: string, value: string][] {
  const values = profileValues(profile);
  return Object.entries(LABELS)
    .filter(([path]) => values[path])
    .map(([path, label]) => [label, path === "dob.date" ? day(values[path]!) : (OPTION_TEXT.get(`${path}=${values[path]}`) ?? values[path]!)]);
}

/** What a consumer's page shows of one of their policies. */
type ConsumerPolicy = Pick<ConsumerPolicyRow, "reference" | "productCode" | "status" | "premiumKobo" | "mode" | "createdAt">;

/** A row of a consumer's policies, linking to `href` (the partner's or the operator's policy page). */
export function consumerPolicyRow(p: ConsumerPolicy, href: string): ConsumerPolicyRow {
  return {
    reference: p.reference,
    href,
    productCode: p.productCode,
    productName: productName(p.productCode),
    status: p.status,
    premiumKobo: p.premiumKobo,
    mode: p.mode,
    createdAt: p.createdAt,
  };
}

/** The names of consumers by id, in one query (a CSV page's insured). */
export async function consumerNamesOf(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.select({ id: consumers.id, profile: consumers.profile }).from(consumers).where(inArray(consumers.id, unique));
  return new Map(rows.map((r) => [r.id, consumerName(r.profile)]));
}

/** The columns of a consumers CSV (the operator's adds the partner first). */
export const CONSUMER_CSV_COLUMNS = ["Consumer id", "Name", "Kind", "E-mail", "Phone", "Documents on file", "Registered (WAT)"] as const;

export function consumerCsvRow(c: ConsumerRecord, partner?: string): CsvValue[] {
  const row = consumerRow(c);
  return [
    ...(partner === undefined ? [] : [partner]),
    row.wireId,
    row.name,
    row.consumerClass === "o" ? "Organisation" : "Person",
    row.email,
    row.phone,
    row.documents.length,
    watTimestamp(row.createdAt),
  ];
}
