/** Issuing marine cargo cover (spec 2.5): the invoiced items of one consignment, from coverStartDate for insrncDrtn. */
import { z } from "zod";
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { isoDate, parseWith, text } from "../../core/validation";
import { checkDirector, type DirectorFields, factError, missingDirectorDecline } from "../credit-life/parties";
import { coverEnd, parseFacts, watMidnight, watToday } from "../policy-helpers";
import { durationField, MONTHLY_DURATIONS, printNairaFigure, requireType, roundHalfUp } from "../shared";
import type { CertificateForm, LiveRoute, PolicyRules } from "../types";
import { checkProformaDate, goodsDescription, invoiceReference, routeOf, voyage } from "./cargo";
import { cargoPremiumKobo, type MarineCover } from "./pricing";

/** How export and import differ once the request is valid (spec 3 and 2.6). */
export interface CargoIssuance {
  liveRoute: LiveRoute;
  certificate: CertificateForm["type"];
}

/** Chosen bound on one proforma invoice. */
const MAX_ITEMS = 100;
const DIRECTOR: DirectorFields = { name: "DrctrName", dob: "DrctrDob" };
/** Spec 2.3: the company forms a marine organisation files with prfl entity. */
const COMPANY_DOCUMENTS = ["cac02", "cac07"] as const;

// items[].value is the line's value (not a unit price): goodsValue is their sum (spec 2.5).
const cargoItem = z.strictObject({ description: text(200), quantity: z.int().min(1), value: nairaAmount({ max: MAX_INSURED_NAIRA }) });

// Strict: a misspelt optional field (coverStartDate, DrctrDob) would otherwise be dropped silently.
export const marineFacts = z.strictObject({
  items: z
    .array(cargoItem)
    .max(MAX_ITEMS)
    .refine((items) => items.length > 0, "must have at least one entry"),
  goodsValue: nairaAmount({ max: MAX_INSURED_NAIRA }),
  goodsDscrptn: goodsDescription,
  voyage,
  proformaInvoice: invoiceReference,
  proformaDate: isoDate,
  coverStartDate: isoDate.optional(),
  DrctrName: text(200).optional(),
  DrctrDob: isoDate.optional(),
});
type MarineFacts = z.output<typeof marineFacts>;

const kobo = (naira: number) => roundHalfUp(naira * 100);

export function cargoPolicy(ctgry: string, covers: readonly MarineCover[], issuance: CargoIssuance): PolicyRules {
  return {
    terms(type, request, { consumer, now }) {
      const cover = requireType(covers, ctgry, type);
      const insrncDrtn = parseWith(durationField(MONTHLY_DURATIONS), request.insrncDrtn, "seed.insrncDrtn");
      const facts = parseFacts(marineFacts, request.addtnlFact);
      checkDirector(DIRECTOR, facts, consumer, now);
      checkProformaDate(facts.proformaDate, now);
      const today = watToday(now);
      const coverStartDate = facts.coverStartDate ?? today;
      if (coverStartDate < today)
        throw factError("coverStartDate", `must not be in the past: cover can start today (${today}) or later; received "${coverStartDate}"`);
      const coverStart = watMidnight(coverStartDate);
      return {
        // The declared goodsValue prices the cover; a mismatch with the items is the insurer's decline, not a refusal.
        premiumKobo: cargoPremiumKobo(cover, facts.goodsValue),
        duration: insrncDrtn,
        coverStart,
        coverEnd: coverEnd(coverStart, insrncDrtn),
        facts: { insrncDrtn, ...facts, coverStartDate },
        liveRoute: issuance.liveRoute,
        printed: [
          ["Goods", facts.goodsDscrptn],
          ["Goods value", printNairaFigure(facts.goodsValue)],
          ["Voyage", routeOf(facts.voyage)],
        ],
      };
    },

    declineReason(_type, terms, { consumer }) {
      const facts = terms.facts as MarineFacts;
      if (consumer.class === "o") {
        const unreadable = COMPANY_DOCUMENTS.filter((form) => !consumer.documents.includes(form));
        if (unreadable.length)
          return `Unreadable company documents: the organisation's ${unreadable.join(" and ")} could not be read; file clear scans again with prfl entity.`;
        const director = missingDirectorDecline(DIRECTOR, facts);
        if (director) return director;
      }
      const itemsKobo = facts.items.reduce((sum, item) => sum + kobo(item.value), 0);
      if (itemsKobo !== kobo(facts.goodsValue))
        return (
          `Marine goodsValue differs from the sum of item values: goodsValue is ${printNairaFigure(facts.goodsValue)} but the items add up to ` +
          `${printNairaFigure(itemsKobo / 100)}.`
        );
      return null;
    },

    certificate() {
      return { type: issuance.certificate, delivery: "inline" };
    },
  };
}
