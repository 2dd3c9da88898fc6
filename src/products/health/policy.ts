/**
 * Issuing health cover. Spec 2.5 does not show its fields; chosen: insrncDrtn (1m, 3m, 6m, 1y)
 * and the one thing an HMO enrols a member with, the hospital of its network they will use.
 */
import { z } from "zod";
import { text } from "../../core/validation";
import { parseFacts } from "../policy-helpers";
import { MONTHLY_DURATIONS, type MonthlyDuration, requireType } from "../shared";
import type { PolicyRules } from "../types";
import { coverFromToday, factError, policyDuration } from "../vehicle/issuance";
import { HEALTH_INSURERS, type HealthInsurer, type Hospital } from "./insurers";
import { healthPremiumKobo } from "./pricing";

// Strict: a misspelt field would otherwise be dropped silently from the policy.
export const healthFacts = z.strictObject({ hospital: text(200) });
type HealthFacts = z.output<typeof healthFacts> & { insrncDrtn: MonthlyDuration };

/** Case, and the spacing or dots within a name, do not make two hospitals ("St Nicholas" is "St. Nicholas"). */
const hospitalKey = (name: string) => name.toLowerCase().replace(/\./g, "").replace(/\s+/g, " ").trim();

function networkHospital(insurer: HealthInsurer, named: string): Hospital {
  const found = insurer.hospitals.find((h) => hospitalKey(h.name) === hospitalKey(named));
  if (!found)
    throw factError(
      "hospital",
      `is not in ${insurer.name}'s network: choose one of ${insurer.hospitals.map((h) => h.name).join(", ")} (dump hlth_*HSPTLS lists them); received "${named}"`,
    );
  return found;
}

export const healthPolicy: PolicyRules = {
  terms(type, request, { now }) {
    // The product type is the insurer code (hlth-<insurer_code>-1111).
    const insurer = requireType(HEALTH_INSURERS, "hlth", type);
    const insrncDrtn = policyDuration(MONTHLY_DURATIONS, request.insrncDrtn);
    const hospital = networkHospital(insurer, parseFacts(healthFacts, request.addtnlFact).hospital);
    const facts: HealthFacts = { insrncDrtn, hospital: hospital.name };
    return {
      premiumKobo: healthPremiumKobo(insrncDrtn),
      duration: insrncDrtn,
      ...coverFromToday(now, insrncDrtn),
      facts,
      liveRoute: "insurer",
      printed: [
        ["Insurer", insurer.name],
        ["Hospital", `${hospital.name}, ${hospital.address}, ${hospital.city}, ${hospital.state}`],
      ],
    };
  },

  // Spec 7 names no decline reason for health.
  declineReason() {
    return null;
  },

  // Spec 2.6 does not show health; chosen: a PDF in the status answer, as the other insurer-issued certificates.
  certificate() {
    return { type: "pdf", delivery: "inline" };
  },
};
