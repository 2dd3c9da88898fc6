/**
 * The shapes claims are asked for in: the seeds of the claim commands, and the portal's forms read
 * as those same seeds (so both surfaces refuse in the same words). Every claim seed refuses blank
 * and null fields (406, as everywhere in the protocol) and unknown fields (400), and names the
 * field it refuses.
 */
import { z } from "zod";
import type { ClaimFilterValues } from "../../../views/claims/claims";
import { refuseBlankFields } from "../../core/blank";
import { type DecodedDocument, decodeDocument } from "../../core/documents";
import { CommandError } from "../../core/errors";
import { nairaAmount, toKobo } from "../../core/money";
import { pageSeed, withDayFilter } from "../../core/pagination";
import { isoDate, parseWith, text } from "../../core/validation";
import { givenFields, typedValue } from "../../portal/page";
import { wireValue } from "../../products/forms";
import { REJECTION_REASON_KEYS } from "./rejections";
import { CLAIM_STATUSES } from "./schema";

const MAX_CLAIM_DOCUMENTS = 10;

/** Document types as the wire (like crtfctType) and the pages name them. */
export const DOCUMENT_TYPES = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" } as const satisfies Record<
  DecodedDocument["mime"],
  string
>;

/** Claim numbers are matched in any case. */
const claimNo = z
  .string()
  .regex(/^CLM-\d{4}-[0-9A-Za-z]{10}$/i, "must be a claim number as claim submit returned it, e.g. CLM-2026-7K3M9Q2XAB")
  .transform((s) => s.toUpperCase());

/** The transaction reference of the policy, as issuance stored and echoed it. */
const policyReference = z.string().min(1).max(64);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name may not hold
const documentName = text(200).regex(/^[^\x00-\x1f\x7f/\\]+$/, "must be a file name without slashes or control characters");

export const submitSeed = z.strictObject({
  policy: policyReference,
  incidentDate: isoDate,
  description: text(2000),
  amount: nairaAmount(),
  documents: z.array(z.strictObject({ name: documentName, content: z.string() })).optional(),
  /** The partner's own claim reference: a repeat with it returns the first claim. */
  reference: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores")
    .optional(),
});

export const statusSeed = z.strictObject({ claimNo });

/** From and to: the days claims were submitted. */
export const listSeed = withDayFilter(
  z.strictObject({
    ...pageSeed.shape,
    status: z.enum(CLAIM_STATUSES).optional(),
    policy: policyReference.optional(),
  }),
);

export const withdrawSeed = z.strictObject({ claimNo, note: text(500).optional() });

export const reviewSeed = z.strictObject({
  claimNo,
  // "paid" is still read, so that it is refused in words: the payout's provider says when a claim is paid.
  status: z.enum(["in_review", "info_requested", "approved", "rejected", "paid"]),
  note: text(500).optional(),
  /** On approval: the amount accepted, at most the amount claimed (default: all of it). */
  approvedAmount: nairaAmount().optional(),
  /** On rejection (required): why, from the documented list. */
  rejectionReason: z.enum(REJECTION_REASON_KEYS).optional(),
});

/** The partner's answer to a request for information: what was asked for, in words and documents. */
export const respondSeed = z.strictObject({
  claimNo,
  note: text(2000),
  documents: z.array(z.strictObject({ name: documentName, content: z.string() })).optional(),
});

/** The account to pay a claim into: a bank's code (docs/payouts.md lists them) and the ten-digit account number (NUBAN). */
export const payeeSeed = z.strictObject({
  claimNo,
  bankCode: z.string().regex(/^\d{3,6}$/, "must be a bank's code of 3 to 6 digits, e.g. 058 (docs/payouts.md lists them)"),
  accountNumber: z.string().regex(/^\d{10}$/, "must be the ten-digit account number (NUBAN)"),
});

const voucherVersion = z.int().min(1).max(1000).meta({ description: "The voucher's version, from 1" });

/** A claim's discharge voucher: the version in force, or an earlier one. */
export const voucherSeed = z.strictObject({ claimNo, version: voucherVersion.optional() });

/** The claimant's acceptance of the voucher version in force: which version they accepted. */
export const acceptSeed = z.strictObject({ claimNo, version: voucherVersion });

/** The operator's assessment: who assesses, the reserve (with why), the checklist's ticks. At least one. */
export const assessSeed = z
  .strictObject({
    claimNo,
    assessor: z.email("must be the e-mail address of one of the operator's administrators").max(254).optional(),
    reserve: nairaAmount().optional(),
    reserveReason: text(500).optional(),
    check: z.array(z.string().min(1).max(64)).max(50).optional(),
    uncheck: z.array(z.string().min(1).max(64)).max(50).optional(),
  })
  .superRefine((seed, ctx) => {
    if (seed.reserve !== undefined && !seed.reserveReason)
      ctx.addIssue({ code: "custom", path: ["reserveReason"], message: "is required with reserve: say why the expected cost changes" });
    if (seed.reserveReason && seed.reserve === undefined) ctx.addIssue({ code: "custom", path: ["reserve"], message: "is required with reserveReason" });
    if (seed.assessor === undefined && seed.reserve === undefined && !seed.check?.length && !seed.uncheck?.length)
      ctx.addIssue({ code: "custom", path: ["assessor"], message: "or reserve, check or uncheck is required: the seed changes nothing" });
  });

/** An assessment seed as the change it asks for: the reserve in kobo. */
export const assessmentChangeOf = (seed: z.output<typeof assessSeed>) => ({
  assessor: seed.assessor,
  reserveKobo: seed.reserve === undefined ? undefined : toKobo(seed.reserve),
  reserveReason: seed.reserveReason,
  check: seed.check,
  uncheck: seed.uncheck,
});

/** Documents sent after the claim (an answer to a request for information), decoded and sniffed like a claim's. */
export function documentsFrom(documents: readonly { name: string; content: string }[] | undefined, maxDocumentBytes: number) {
  const list = documents ?? [];
  if (list.length > MAX_CLAIM_DOCUMENTS)
    throw new CommandError(
      413,
      `seed.documents has ${list.length} entries: a claim takes at most ${MAX_CLAIM_DOCUMENTS} documents at a time`,
      "seed.documents",
    );
  return list.map((d, i) => ({ name: d.name, ...decodeDocument(d.content, `seed.documents[${i}].content`, maxDocumentBytes) }));
}

/** Refuse blank and null fields (406), then validate (400). An absent seed is validated as {}. */
export function parseClaimSeed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  refuseBlankFields(raw);
  return parseWith(schema, raw ?? {});
}

/** What `claim submit` asks for, validated: money in kobo, documents decoded and sniffed. */
export interface ClaimRequest {
  /** The policy's transaction reference as issuance stored it (a 32-hex reference may come without hyphens). */
  policy: string;
  /** YYYY-MM-DD, Nigerian date. */
  incidentDate: string;
  description: string;
  amountKobo: number;
  documents: (DecodedDocument & { name: string })[];
  reference?: string;
}

/** A submit seed → the claim it asks for: naira to kobo, documents decoded and sniffed (413 / 415). */
export function claimRequestFrom(seed: z.output<typeof submitSeed>, maxDocumentBytes: number): ClaimRequest {
  const documents = seed.documents ?? [];
  if (documents.length > MAX_CLAIM_DOCUMENTS)
    throw new CommandError(413, `seed.documents has ${documents.length} entries: a claim takes at most ${MAX_CLAIM_DOCUMENTS} documents`, "seed.documents");
  return {
    policy: seed.policy,
    incidentDate: seed.incidentDate,
    description: seed.description,
    amountKobo: toKobo(seed.amount),
    documents: documents.map((d, i) => ({ name: d.name, ...decodeDocument(d.content, `seed.documents[${i}].content`, maxDocumentBytes) })),
    reference: seed.reference,
  };
}

/** An approval's amount in kobo, when the review seed gave one. */
export const approvedKoboOf = (seed: z.output<typeof reviewSeed>) => (seed.approvedAmount === undefined ? undefined : toKobo(seed.approvedAmount));

// ─── The portal's forms, read as the seeds above ─────────────────────────────────────────────

type FormFields = Record<string, string | undefined>;

/** A claim number from a URL, as the JSON surface reads it (any case); null when it cannot be one. */
export function claimNoOf(raw: string): string | null {
  try {
    return parseClaimSeed(statusSeed, { claimNo: decodeURIComponent(raw) }).claimNo;
  } catch {
    return null;
  }
}

/** A document's position from a URL (1 for the first); 0 when it cannot be one. */
export const documentPositionOf = (raw: string) => (/^\d{1,2}$/.test(raw) ? Number(raw) : 0);

/** The list filters of a query string, and the `claim list` seed they make (parsed by the presenter, so a refusal reads as the JSON surface words it). */
export function listFiltersOf(query: FormFields): { values: ClaimFilterValues; seed: Record<string, unknown> } {
  const values: ClaimFilterValues = {
    status: typedValue(query.status),
    policy: typedValue(query.policy),
    from: typedValue(query.from),
    to: typedValue(query.to),
  };
  return { values, seed: givenFields({ ...values, cursor: typedValue(query.cursor) }) };
}

/**
 * The claim form's strings and files as the `claim submit` seed: blank inputs left out, the amount
 * read like every portal number, each chosen file as base64 with its own name. `inputs[i]` is the
 * input of seed.documents[i], to put a refusal beside it.
 */
export async function submitSeedFrom(values: FormFields, body: unknown, documentInputs: number) {
  const { documents, inputs } = await formDocuments(body, documentInputs);
  const seed = givenFields({
    policy: typedValue(values.policy),
    incidentDate: typedValue(values.incidentDate),
    description: typedValue(values.description),
    amount: wireValue({ kind: "number", path: "amount", label: "Amount" }, values.amount),
    reference: typedValue(values.reference),
    ...(documents.length ? { documents } : {}),
  });
  return { seed, inputs };
}

/** The files chosen in a form's document inputs (document1…), as seed documents, with the input each came from. */
async function formDocuments(body: unknown, documentInputs: number) {
  const form = (body ?? {}) as Record<string, unknown>;
  const documents: { name: string; content: string }[] = [];
  const inputs: string[] = [];
  for (let i = 1; i <= documentInputs; i++) {
    const file = form[`document${i}`];
    if (!(file instanceof Blob) || file.size === 0) continue;
    const name = file instanceof File && file.name ? file.name : `document-${i}`;
    documents.push({ name, content: Buffer.from(await file.arrayBuffer()).toString("base64") });
    inputs.push(`document${i}`);
  }
  return { documents, inputs };
}

/** The partner's answer form as the `claim respond` seed: its "answer" is the note, its document inputs as in the claim form. */
export async function respondSeedFrom(claimNo: string, values: FormFields, body: unknown, documentInputs: number) {
  const { documents, inputs } = await formDocuments(body, documentInputs);
  const raw = givenFields({ claimNo, note: typedValue(values.answer), ...(documents.length ? { documents } : {}) });
  return { raw, inputs };
}

const someOf = (list: string[]) => (list.length ? list : undefined);

/** The values of a form's repeated input (checkboxes of one name): none, one or several. */
export const formList = (body: unknown, name: string): string[] =>
  [((body ?? {}) as Record<string, unknown>)[name]].flat().filter((v): v is string => typeof v === "string");

/** The operator's assessment form as the `claim assess` seed: the ticked items against those ticked before. */
export function assessSeedFrom(claimNo: string, values: FormFields, ticked: readonly string[], checked: readonly string[], assessor: string | null) {
  const chosen = typedValue(values.assessor);
  return parseClaimSeed(
    assessSeed,
    givenFields({
      claimNo,
      assessor: chosen && chosen !== assessor ? chosen : undefined,
      reserve: wireValue({ kind: "number", path: "reserve", label: "Reserve" }, values.reserve),
      reserveReason: typedValue(values.reserveReason),
      check: someOf(ticked.filter((key) => !checked.includes(key))),
      uncheck: someOf(checked.filter((key) => !ticked.includes(key))),
    }),
  );
}

/** The withdraw form as the `claim withdraw` seed. */
export const withdrawSeedFrom = (claimNo: string, values: FormFields) => parseClaimSeed(withdrawSeed, givenFields({ claimNo, note: typedValue(values.note) }));

/** The operator's review form as the `claim review` seed: the same rules as the JSON surface's. */
export const reviewSeedFrom = (claimNo: string, values: FormFields) =>
  parseClaimSeed(reviewSeed, {
    claimNo,
    status: typedValue(values.status),
    note: typedValue(values.note),
    approvedAmount: wireValue({ kind: "number", path: "approvedAmount", label: "Approved amount" }, values.approvedAmount),
    rejectionReason: values.status === "rejected" ? typedValue(values.rejectionReason) : undefined,
  });
