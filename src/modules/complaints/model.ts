/**
 * The shapes complaints are asked for in: the seeds of the complaint commands, and the portal's forms
 * read as those same seeds (so both surfaces refuse in the same words, naming the field).
 */
import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { type DecodedDocument, decodeDocument } from "../../core/documents";
import { nairaAmount } from "../../core/money";
import { nigerianPhone, parseWith, phoneNumber, text } from "../../core/validation";
import { typedValue } from "../../portal/page";
import { COMPLAINT_CATEGORY_KEYS } from "./categories";
import { COMPLAINT_OUTCOMES } from "./schema";

/** Documents one step may attach (the filing, or an addition). */
const MAX_COMPLAINT_DOCUMENTS = 5;

/** Complaint numbers are matched in any case. */
const complaintNo = z
  .string()
  .regex(/^CMP-\d{4}-[0-9A-Za-z]{10}$/i, "must be a complaint number as complaint file returned it, e.g. CMP-2026-7K3M9Q2XAB")
  .transform((s) => s.toUpperCase());

const claimNo = z
  .string()
  .regex(/^CLM-\d{4}-[0-9A-Za-z]{10}$/i, "must be a claim number, e.g. CLM-2026-7K3M9Q2XAB")
  .transform((s) => s.toUpperCase());

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name may not hold
const documentName = text(200).regex(/^[^\x00-\x1f\x7f/\\]+$/, "must be a file name without slashes or control characters");
const documents = z
  .array(z.strictObject({ name: documentName, content: z.string() }))
  .max(MAX_COMPLAINT_DOCUMENTS)
  .optional();

export const fileSeed = z
  .strictObject({
    complainant: z.strictObject({
      name: text(200),
      email: z.email("must be an e-mail address, e.g. ada@example.com").max(254).optional(),
      phone: phoneNumber.optional(),
    }),
    category: z.enum(COMPLAINT_CATEGORY_KEYS),
    description: text(4000),
    /** The policy it concerns: its number or its transaction reference. */
    policy: z.string().trim().min(1).max(64).optional(),
    claimNo: claimNo.optional(),
    /** The partner's own reference: a repeat with it answers the first complaint. */
    reference: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores")
      .optional(),
    documents,
  })
  .superRefine((seed, ctx) => {
    if (!seed.complainant.email && !seed.complainant.phone)
      ctx.addIssue({ code: "custom", path: ["complainant", "email"], message: "or seed.complainant.phone is required: a way to reach the complainant" });
  });

export const statusSeed = z.strictObject({ complaintNo });

/** The partner adds information: words, documents, or both. */
export const addSeed = z.strictObject({ complaintNo, note: text(4000), documents });

/** The operator's resolution: the outcome, what was found, and the redress (naira; 0 or absent: none). */
export const resolveSeed = z.strictObject({
  outcome: z.enum(COMPLAINT_OUTCOMES),
  resolution: text(4000),
  redress: nairaAmount().optional(),
});

export type FileSeed = z.output<typeof fileSeed>;

/** Refuse blank and null fields (406), then validate (400), as the claim commands do. An absent seed is validated as {}. */
export function parseComplaintSeed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  refuseBlankFields(raw);
  return parseWith(schema, raw ?? {});
}

/** Documents of a seed, decoded and sniffed as a claim's are (413 / 415 name the one refused). */
export function decodedDocuments(list: readonly { name: string; content: string }[] | undefined, maxBytes: number) {
  return (list ?? []).map((d, i) => ({ name: d.name, ...decodeDocument(d.content, `seed.documents[${i}].content`, maxBytes) }));
}
export type NamedDocument = DecodedDocument & { name: string };

/** A complaint number from a URL; null when it cannot be one. */
export function complaintNoOf(raw: string): string | null {
  const parsed = complaintNo.safeParse(decodeURIComponent(raw));
  return parsed.success ? parsed.data : null;
}

// ─── The portal's forms, read as the seeds above ─────────────────────────────────────────────

type FormFields = Record<string, string | undefined>;

/** The partner's complaint form as a `complaint file` seed (blank inputs left out, so the seed says what is required). */
export function fileSeedFrom(values: FormFields, files: { name: string; content: string }[]) {
  const phone = typedValue(values["complainant.phone"]);
  return withoutBlanks({
    complainant: withoutBlanks({
      name: typedValue(values["complainant.name"]),
      email: typedValue(values["complainant.email"]),
      phone: phone && nigerianPhone(phone),
    }),
    category: typedValue(values.category),
    description: typedValue(values.description),
    policy: typedValue(values.policy),
    claimNo: typedValue(values.claimNo),
    reference: typedValue(values.reference),
    ...(files.length ? { documents: files } : {}),
  });
}

/** Uploaded files of a multipart form (inputs `documents.0` …) as the seed's documents, empty inputs left out. */
export async function uploadedDocuments(body: unknown, inputs: number): Promise<{ name: string; content: string }[]> {
  const fields = (body ?? {}) as Record<string, unknown>;
  const found: { name: string; content: string }[] = [];
  for (let i = 0; i < inputs; i++) {
    const file = fields[`documents.${i}`] ?? (fields.documents as Record<string, unknown> | undefined)?.[i];
    if (file instanceof Blob && file.size > 0)
      found.push({ name: (file as File).name || `document-${i + 1}`, content: Buffer.from(await file.arrayBuffer()).toString("base64") });
  }
  return found;
}

const withoutBlanks = <T extends Record<string, unknown>>(seed: T) =>
  Object.fromEntries(Object.entries(seed).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
