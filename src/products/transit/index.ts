/** Goods in transit within Nigeria (gtrn-stnd): a rate and minimum per tier of declared goods value. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { CARGO_CLAIM_DOCUMENTS, sumInsuredFrom } from "../claims";
import { SANDBOX_INSURERS } from "../insurers";
import { productFamily } from "../shared";
import type { ProductFamily, ProductType, Quote } from "../types";
import { transitForms } from "./form";
import { transitFacts, transitPolicy } from "./policy";
import { insurableGoodsValue, TRANSIT_TYPES, transitPremiumKobo } from "./pricing";

const transitSeed = z.object({ goodsValue: insurableGoodsValue });

function quotePremium(_type: ProductType, seed: unknown): Quote {
  const { goodsValue } = parseWith(transitSeed, seed);
  // No insrncDrtn: cover runs from departure to estimated arrival (spec 2.5).
  return { premiumKobo: transitPremiumKobo(goodsValue), basis: { goodsValue } };
}

export const transit: ProductFamily = productFamily({
  ctgry: "gtrn",
  name: "Goods in transit",
  types: TRANSIT_TYPES,
  quote: quotePremium,
  consumerRequirements(_type, consumerClass) {
    // Spec 2.3 names first and last name; an organisation has only its brand name.
    const names = consumerClass === "o" ? ["name.brand"] : ["name.first", "name.last"];
    return ["class", ...names, "phoneNo", "eMail"];
  },
  policy: transitPolicy,
  // One trip: once the goods are dispatched the risk has run.
  cancellation: { kind: "until-risk-starts", feePercent: 10, start: "the goods were dispatched" },
  claims: { ...sumInsuredFrom("goodsValue", "the declared value of the goods"), documents: () => CARGO_CLAIM_DOCUMENTS },
  insurer: SANDBOX_INSURERS.custodian,
  forms: transitForms,
  schemas: () => ({ quote: transitSeed, addtnlFact: transitFacts }),
});
