import { z } from "zod";
import { publicUrl } from "../../core/config";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import { BLANK_FIELD, currency, naira as nairaField, UNKNOWN_FIELD, wireDate, wireTimestamp } from "../../http/answers";
import { command, refusal } from "../../http/registry";
import { COMPLAINT_CATEGORY_KEYS } from "./categories";
import { complaintFileExamples, complaintStatusExamples, NO_WAY_TO_REACH, UNKNOWN_COMPLAINT } from "./examples";
import { decodedDocuments, fileSeed, parseComplaintSeed, statusSeed } from "./model";
import { complaintClock } from "./rules";
import { COMPLAINT_OUTCOMES, COMPLAINT_STATUSES } from "./schema";
import { type ComplaintDetail, type ComplaintRecord, complaintDetail, earlierComplaint, fileComplaint, letterPath } from "./service";

const complaintNumber = z.string().meta({ description: "The complaint number (CMP-<year>-<10 characters>)" });

const filedAnswer = z.object({
  complaintNo: complaintNumber,
  reference: z.string().optional().meta({ description: "Your reference, when the complaint was filed with one" }),
  status: z.enum(COMPLAINT_STATUSES),
  category: z.enum(COMPLAINT_CATEGORY_KEYS),
  policyNo: z.string().optional().meta({ description: "The policy it concerns, when one was named (or the claim's)" }),
  claimNo: z.string().optional().meta({ description: "The claim it concerns, when one was named" }),
  receivedOn: wireDate,
  acknowledgeDue: wireDate.meta({
    description: 'The last day (Nigerian) to acknowledge it: COMPLAINT_ACK_WORKING_DAYS working days (docs/complaints.md, "The clock")',
  }),
  resolveDue: wireDate.meta({ description: "The last day to resolve it: COMPLAINT_RESOLUTION_DAYS days after it was received" }),
  tmstmp: wireTimestamp,
});

const statusAnswer = filedAnswer.extend({
  complainant: z.object({ name: z.string(), email: z.string().optional(), phone: z.string().optional() }),
  description: z.string(),
  outcome: z.enum(COMPLAINT_OUTCOMES).optional().meta({ description: "Once resolved: upheld, partly upheld or not upheld" }),
  redress: nairaField("Once resolved: the redress granted, naira (0: none)").optional(),
  currency: currency.optional(),
  resolution: z.string().optional().meta({ description: "Once resolved: what was found and done, in the operator's words" }),
  letterUrl: z.string().optional().meta({ description: "Once resolved: the resolution letter (PDF) in the partner's portal" }),
  history: z.array(z.object({ status: z.enum(COMPLAINT_STATUSES), note: z.string().optional(), at: wireTimestamp })),
  notes: z.array(z.object({ note: z.string(), at: wireTimestamp })).meta({ description: "What the partner added since filing" }),
  documents: z.array(z.object({ name: z.string(), size: z.int().meta({ description: "Bytes" }) })),
  updated: wireTimestamp,
});

const optional = <K extends string, V>(key: K, value: V | null | undefined) => (value == null ? {} : ({ [key]: value } as Record<K, V>));

const filed = (c: ComplaintRecord) => ({
  complaintNo: c.complaintNo,
  ...optional("reference", c.reference),
  status: c.status,
  category: c.category,
  ...optional("policyNo", c.policyNo ?? c.policyReference),
  ...optional("claimNo", c.claimNo),
  receivedOn: c.receivedOn,
  acknowledgeDue: c.acknowledgeDueOn,
  resolveDue: c.resolveDueOn,
  tmstmp: watTimestamp(c.createdAt),
});

const wireDetail = (c: ComplaintDetail, baseUrl: string) => ({
  ...filed(c),
  complainant: { name: c.complainantName, ...optional("email", c.complainantEmail), ...optional("phone", c.complainantPhone) },
  description: c.description,
  ...optional("outcome", c.outcome),
  ...(c.status === "resolved" ? { redress: naira(c.redressKobo ?? 0), currency: "NGN" as const } : {}),
  ...optional("resolution", c.resolution),
  ...(c.hasLetter ? { letterUrl: `${baseUrl}${letterPath(c.complaintNo)}` } : {}),
  history: c.history.map((s) => ({ status: s.status, ...optional("note", s.note), at: watTimestamp(new Date(s.at)) })),
  notes: c.notes.map((n) => ({ note: n.body, at: watTimestamp(n.createdAt) })),
  documents: c.documents.map((d) => ({ name: d.name, size: d.sizeBytes })),
  updated: watTimestamp(c.updatedAt),
});

// Seeds are parsed in the handlers: blank fields are refused (406) before the shape.
export const complaintCommands = [
  command({
    grammar: "complaint file",
    pattern: /^complaint file$/,
    who: "partner",
    summary:
      "File a customer's complaint (the complainant need not hold a policy; a policy or claim named must be this partner's); a repeat with the same reference answers the first complaint.",
    documentedSeed: fileSeed,
    answer: filedAnswer,
    errors: [
      NO_WAY_TO_REACH,
      refusal(404, "seed.policy: no policy <policy> among this partner's policies"),
      refusal(404, "seed.claimNo: no claim <claimNo> among this partner's claims"),
      refusal(400, "seed.claimNo <claimNo> is a claim on another policy than <policy>: name the claim's own policy, or only the claim"),
      refusal(400, "seed.category must be one of <categories>; received <value>"),
      BLANK_FIELD,
      UNKNOWN_FIELD,
    ],
    examples: complaintFileExamples,
    async handler(ctx, _params, raw) {
      const seed = parseComplaintSeed(fileSeed, raw);
      const { complaint } = await fileComplaint(ctx.db, {
        partnerId: ctx.principal.partnerId,
        mode: ctx.principal.mode,
        seed,
        documents: decodedDocuments(seed.documents, ctx.config.MAX_DOCUMENT_BYTES),
        by: "partner",
        now: ctx.now(),
        clock: complaintClock(ctx.config),
        baseUrl: publicUrl(ctx.config),
      });
      return filed(complaint);
    },
    async recover(ctx, _params, raw) {
      const seed = parseComplaintSeed(fileSeed, raw);
      if (!seed.reference) return undefined;
      const complaint = await earlierComplaint(ctx.db, ctx.principal.partnerId, seed.reference);
      return complaint && filed(complaint);
    },
  }),
  command({
    grammar: "complaint status",
    pattern: /^complaint status$/,
    who: "partner",
    summary: "A complaint of this partner: where it stands, its deadlines, what was added, and once resolved its outcome, redress and letter.",
    documentedSeed: statusSeed,
    answer: statusAnswer,
    errors: [UNKNOWN_COMPLAINT, refusal(400, "seed.complaintNo must be a complaint number as complaint file returned it, e.g. CMP-2026-7K3M9Q2XAB")],
    examples: complaintStatusExamples,
    async handler(ctx, _params, raw) {
      const seed = parseComplaintSeed(statusSeed, raw);
      return wireDetail(await complaintDetail(ctx.db, { partnerId: ctx.principal.partnerId }, seed.complaintNo), publicUrl(ctx.config));
    },
  }),
];
