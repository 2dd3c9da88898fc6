/** Issuing motor cover (spec 2.5): one identified vehicle, from today for insrncDrtn. */
import { z } from "zod";
import { type DecodedDocument, decodeDocument } from "../../core/documents";
import { text } from "../../core/validation";
import { parseFacts, watToday } from "../policy-helpers";
import { printNairaFigure, requireType } from "../shared";
import type { LiveRoute, PolicyRules, PolicyTerms } from "../types";
import { coverFromToday, factError, policyDuration } from "./issuance";
import { comprehensivePremiumKobo, insuredVehicleValue, thirdPartyPremiumKobo, VEHICLE_DURATIONS, VEHICLE_TYPES, type VehicleDuration } from "./pricing";

/** Chosen: the oldest vehicle insured; the newest is next year's model, already on sale. */
const OLDEST_MODEL_YEAR = 1950;
/** Chosen: a scan or photo of the vehicle papers; larger uploads are refused rather than stored. */
const MAX_PROOF_BYTES = 2 * 1024 * 1024;
/** Only comprehensive cover prices the vehicle's value or reviews ownership (spec 2.5). */
const COMPREHENSIVE_ONLY = ["vhclValueForInsrnc", "proofOfOwnrsh"] as const;

/**
 * A VIN is 17 characters without I, O or Q (ISO 3779, as the VIN check in spec 4.3); older and
 * Japanese-market vehicles carry shorter frame numbers such as "ZZT240-1234567".
 */
const chassisNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, "must be the chassis number or VIN: letters and digits (a hyphen may separate the parts of a frame number), no spaces")
  .min(5)
  .max(25)
  .refine((id) => !/^[A-Z0-9]{17}$/.test(id) || !/[IOQ]/.test(id), "is a 17-character VIN and must not contain the letters I, O or Q");

const engineNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, "must be the engine number: letters and digits (a hyphen may separate its parts), no spaces")
  .min(4)
  .max(25);

/**
 * Spec 2.5: the plate as registered, without hyphens; stored uppercase so "abc123de" and "ABC123DE"
 * are one vehicle. The portal's form sends a typed plate through the plate rule (./plate.ts) first,
 * so its hint speaks to people; the reference keeps the wire's own description.
 */
const registrationPlate = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]+$/, "must be the registration plate in letters and digits only, without hyphens or spaces, e.g. ABC123DE")
  .min(3)
  .max(10)
  .meta({ description: "Registration plate. Letters and digits without hyphens, e.g. ABC123DE" });

// Strict: a misspelt field would otherwise be dropped silently from the policy.
export const vehicleFacts = z.strictObject({
  brand: text(100),
  model: text(100),
  // Spec 2.5 sends the year as a string; a JSON number is refused ("must be a string").
  year: z.string().regex(/^\d{4}$/, 'must be a 4-digit year in quotes, e.g. "2018"'),
  chsssId: chassisNumber,
  engineId: engineNumber,
  rgstrtId: registrationPlate,
});
export const comprehensiveFacts = vehicleFacts.extend({
  vhclValueForInsrnc: insuredVehicleValue,
  proofOfOwnrsh: z.string().optional(),
});

/** What is stored of the ownership document: its kind and size, never the bytes. */
interface ProofOfOwnership {
  mime: DecodedDocument["mime"];
  sizeBytes: number;
}

type VehicleFacts = z.output<typeof vehicleFacts> & {
  insrncDrtn: VehicleDuration;
  vhclValueForInsrnc?: number;
  proofOfOwnrsh?: ProofOfOwnership;
};

const alphanumeric = (text: string | undefined) => (text ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "");
/** Makes and models as people write them: "Mercedes Benz" is "Mercedes-Benz", "Corolla LE" is a Corolla. */
function sameName(insured: string, registered: string | undefined): boolean {
  const [a, b] = [alphanumeric(insured), alphanumeric(registered)];
  return !b || a === b || a.startsWith(b) || b.startsWith(a);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function checkModelYear(year: string, now: Date): void {
  const newest = Number(watToday(now).slice(0, 4)) + 1;
  if (Number(year) < OLDEST_MODEL_YEAR || Number(year) > newest)
    throw factError("year", `must be a year of manufacture from ${OLDEST_MODEL_YEAR} to ${newest}; received "${year}"`);
}

function proofOfOwnership(document: string): ProofOfOwnership {
  const { mime, bytes } = decodeDocument(document, "seed.addtnlFact.proofOfOwnrsh", MAX_PROOF_BYTES);
  return { mime, sizeBytes: bytes.length };
}

/** Spec 3: comprehensive with proof of ownership is approved at once; without it, an administrator reviews it. */
function liveRouteOf(facts: VehicleFacts, code: "tprt" | "cmpr"): LiveRoute {
  if (code === "tprt") return "insurer";
  return facts.proofOfOwnrsh ? "approve" : "manual";
}

function printedLines(facts: VehicleFacts): PolicyTerms["printed"] {
  return [
    ["Vehicle", `${facts.brand} ${facts.model} ${facts.year}`],
    ["Registration", facts.rgstrtId],
    ["Chassis / VIN", facts.chsssId],
    ["Engine number", facts.engineId],
    ...(facts.vhclValueForInsrnc === undefined ? [] : [["Insured value", printNairaFigure(facts.vhclValueForInsrnc)] as const]),
  ];
}

export const vehiclePolicy: PolicyRules = {
  terms(type, request, { now }) {
    const { code } = requireType(VEHICLE_TYPES, "vhcl", type);
    const insrncDrtn = policyDuration(VEHICLE_DURATIONS, request.insrncDrtn);
    // Chosen: refused on third-party rather than ignored, so a partner never believes a value or a document was recorded.
    if (code === "tprt" && isRecord(request.addtnlFact))
      for (const field of COMPREHENSIVE_ONLY)
        if (request.addtnlFact[field] !== undefined)
          throw factError(field, "is for comprehensive cover (vhcl-cmpr-1111) only: third-party cover has a flat premium and no ownership review; omit it");

    let facts: VehicleFacts;
    let premiumKobo: number;
    if (code === "cmpr") {
      const { proofOfOwnrsh, ...sent } = parseFacts(comprehensiveFacts, request.addtnlFact);
      facts = { insrncDrtn, ...sent, ...(proofOfOwnrsh === undefined ? {} : { proofOfOwnrsh: proofOfOwnership(proofOfOwnrsh) }) };
      premiumKobo = comprehensivePremiumKobo(insrncDrtn, sent.vhclValueForInsrnc);
    } else {
      facts = { insrncDrtn, ...parseFacts(vehicleFacts, request.addtnlFact) };
      premiumKobo = thirdPartyPremiumKobo(insrncDrtn);
    }
    checkModelYear(facts.year, now);

    return {
      premiumKobo,
      duration: insrncDrtn,
      ...coverFromToday(now, insrncDrtn),
      facts,
      liveRoute: liveRouteOf(facts, code),
      printed: printedLines(facts),
    };
  },

  // Spec 7: "vehicle details not matching national records" — the registry lists the plate under another
  // vehicle. ("Unclear proof of ownership" needs a person reading the document: the manual review.)
  declineReason(type, terms, _context, { vehicleRecord }) {
    if (vehicleRecord?.status !== "found") return null;
    const insured = vehiclePolicy.registeredVehicle!(type, terms);
    const registered = { make: vehicleRecord.details.vehicle_make, model: vehicleRecord.details.vehicle_model, chassis: vehicleRecord.details.chassis_number };
    const differences = [
      !sameName(insured.make, registered.make) && `make ${registered.make}, not ${insured.make}`,
      !sameName(insured.model, registered.model) && `model ${registered.model}, not ${insured.model}`,
      registered.chassis && alphanumeric(insured.chassis) !== alphanumeric(registered.chassis) && `chassis ${registered.chassis}, not ${insured.chassis}`,
    ].filter(Boolean);
    return differences.length
      ? `Vehicle details not matching national records: the registry lists ${insured.registration} with ${differences.join("; ")}.`
      : null;
  },

  registeredVehicle(type, terms) {
    const facts = terms.facts as VehicleFacts;
    return {
      registration: facts.rgstrtId,
      make: facts.brand,
      model: facts.model,
      chassis: facts.chsssId,
      cover: type === "cmpr" ? "Comprehensive" : "Third Party",
    };
  },

  // Spec 2.6: vehicle products answer with policyNo (test mode adds certUrl); the certificate is a PDF.
  certificate() {
    return { type: "pdf", delivery: "policyNo" };
  },

  // Kept as the document's kind and size: a change keeps it, a renewal goes without it to review (spec 3).
  documentFacts: ["proofOfOwnrsh"],
};
