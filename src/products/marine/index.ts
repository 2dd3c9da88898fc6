/** Marine cargo: export (mexx) and import (mrnn), a share of the cargo value with a minimum premium. */
import { z } from "zod";
import { MAX_INSURED_NAIRA, nairaAmount } from "../../core/money";
import { parseWith } from "../../core/validation";
import { CARGO_CLAIM_DOCUMENTS, sumInsuredFrom } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { durationField, MONTHLY_DURATIONS, productFamily } from "../shared";
import type { ConsumerClass, ProductFamily } from "../types";
import { marineForms } from "./form";
import { type CargoIssuance, cargoPolicy, marineFacts } from "./policy";
import { cargoPremiumKobo, EXPORT_COVERS, IMPORT_COVERS, type MarineCover } from "./pricing";

const marineSeed = z.object({ goodsValue: nairaAmount({ max: MAX_INSURED_NAIRA }), insrncDrtn: durationField(MONTHLY_DURATIONS) });

/** Spec 2.3: marine asks for identity and tax documents, differently for people and companies. */
const MARINE_CONSUMER: Readonly<Record<ConsumerClass, readonly string[]>> = {
  h: ["class", "name.first", "name.last", "socialID.type", "socialID.id", "socialID.image", "taxId", "addrss.addrss", "phoneNo", "eMail"],
  o: ["class", "name.brand", "rc", "cac02", "cac07", "taxId", "addrss.addrss", "phoneNo", "eMail"],
};

function marineFamily(ctgry: string, name: string, covers: readonly MarineCover[], issuance: CargoIssuance): ProductFamily {
  return productFamily({
    ctgry,
    name,
    types: covers,
    quote(cover, seed) {
      const { goodsValue, insrncDrtn } = parseWith(marineSeed, seed);
      return { premiumKobo: cargoPremiumKobo(cover, goodsValue), duration: insrncDrtn, basis: { goodsValue, insrncDrtn } };
    },
    consumerRequirements: (_cover, consumerClass) => MARINE_CONSUMER[consumerClass],
    policy: cargoPolicy(ctgry, covers, issuance),
    // One voyage: once it has started the risk has run.
    cancellation: { kind: "until-risk-starts", feePercent: 10, start: "the voyage started" },
    claims: { ...sumInsuredFrom("goodsValue", "the declared value of the goods"), documents: () => CARGO_CLAIM_DOCUMENTS },
    insurer: SANDBOX_INSURERS.custodian,
    forms: marineForms(ctgry, covers),
    schemas: () => ({ quote: marineSeed, insrncDrtn: durationField(MONTHLY_DURATIONS), addtnlFact: marineFacts }),
  });
}

// Spec 3 and 2.6: export is approved at once with a DOCX; import waits for manual review and gets a PDF.
export const marineExport = marineFamily("mexx", "Marine export", EXPORT_COVERS, { liveRoute: "approve", certificate: "docx" });
export const marineImport = marineFamily("mrnn", "Marine import", IMPORT_COVERS, { liveRoute: "manual", certificate: "pdf" });
