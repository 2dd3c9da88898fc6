/**
 * The wire shapes of the claim commands. Every claim seed refuses blank and null fields (406, as
 * everywhere in the protocol) and unknown fields (400), and names the field it refuses.
 */
import { z } from "zod";
import { refuseBlankFields } from "../../core/blank";
import { decodeDocument } from "../../core/documents";
import { CommandError } from "../../core/errors";
import { nairaAmount, toKobo } from "../../core/money";
import { pageSeed } from "../../core/pagination";
import { isoDate, parseWith, text } from "../../core/validation";
import { CLAIM_STATUSES } from "./schema";
import type { ClaimRequest } from "./service";

const MAX_CLAIM_DOCUMENTS = 10;

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

export const listSeed = z
  .strictObject({
    ...pageSeed.shape,
    status: z.enum(CLAIM_STATUSES).optional(),
    policy: policyReference.optional(),
    /** Submitted on or after this date (Nigerian local time). */
    from: isoDate.optional(),
    /** Submitted on or before this date (Nigerian local time). */
    to: isoDate.optional(),
  })
  .refine((s) => !s.from || !s.to || s.from <= s.to, { message: "must not be before seed.from", path: ["to"] });

export const withdrawSeed = z.strictObject({ claimNo, note: text(500).optional() });

export const reviewSeed = z.strictObject({
  claimNo,
  status: z.enum(["in_review", "approved", "rejected", "paid"]),
  note: text(500).optional(),
  /** On approval: the amount accepted, at most the amount claimed (default: all of it). */
  approvedAmount: nairaAmount().optional(),
});

/** Refuse blank and null fields (406), then validate (400). An absent seed is validated as {}. */
export function parseClaimSeed<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  refuseBlankFields(raw);
  return parseWith(schema, raw ?? {});
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
