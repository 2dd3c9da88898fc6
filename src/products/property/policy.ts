/**
 * Issuing property cover. Spec 2.5 does not show its fields; chosen: insrncDrtn (1m, 3m, 6m, 1y)
 * and what the quote priced (sumInsured), what is insured (description) and, for fire and
 * burglary, where (premisesAddress, by default the consumer's address).
 */
import { z } from "zod";
import { text } from "../../core/validation";
import { parseFacts } from "../policy-helpers";
import { MONTHLY_DURATIONS, type MonthlyDuration, printNairaFigure, requireType } from "../shared";
import type { PolicyRules } from "../types";
import { consumerAddress, coverFromToday, factError, policyDuration } from "../vehicle/issuance";
import { type PropertyCover, propertyPremiumKobo, sumInsured } from "./pricing";

/** How the covers differ once the request is valid. */
export interface PropertyIssuance {
  /** The cover insures one building, so the policy names its address. */
  premises: boolean;
}

// Strict: a misspelt field (premisesAdress) would otherwise be dropped silently from the policy.
export const propertyFacts = z.strictObject({ sumInsured, description: text(500) });
export const premisesFacts = propertyFacts.extend({ premisesAddress: text(500).optional() });

type PropertyFacts = z.output<typeof propertyFacts> & { insrncDrtn: MonthlyDuration; premisesAddress?: string };

export function propertyPolicy(ctgry: string, covers: readonly PropertyCover[], issuance: PropertyIssuance): PolicyRules {
  return {
    terms(type, request, { consumer, now }) {
      const cover = requireType(covers, ctgry, type);
      const insrncDrtn = policyDuration(MONTHLY_DURATIONS, request.insrncDrtn);
      let facts: PropertyFacts;
      if (issuance.premises) {
        const sent = parseFacts(premisesFacts, request.addtnlFact);
        const premisesAddress = sent.premisesAddress ?? consumerAddress(consumer);
        if (premisesAddress === undefined)
          throw factError("premisesAddress", "is required: the consumer has no addrss.addrss to insure at, so name the insured premises");
        facts = { insrncDrtn, ...sent, premisesAddress };
      } else {
        facts = { insrncDrtn, ...parseFacts(propertyFacts, request.addtnlFact) };
      }
      return {
        premiumKobo: propertyPremiumKobo(cover, facts.sumInsured, insrncDrtn),
        duration: insrncDrtn,
        ...coverFromToday(now, insrncDrtn),
        facts,
        liveRoute: "insurer",
        printed: [
          ["Property insured", facts.description],
          ["Sum insured", printNairaFigure(facts.sumInsured)],
          ...(facts.premisesAddress === undefined ? [] : [["Premises", facts.premisesAddress] as const]),
        ],
      };
    },

    // Spec 7 names no decline reason for all risk or fire and burglary.
    declineReason() {
      return null;
    },

    // Spec 2.6 does not show these covers; chosen: a PDF in the status answer, as the other insurer-issued certificates.
    certificate() {
      return { type: "pdf", delivery: "inline" };
    },
  };
}
