/** Goods in transit within Nigeria (gtrn-stnd): a rate and minimum per tier of declared goods value. */
import { z } from "zod";
import { parseWith } from "../../core/validation";
import { requireType } from "../shared";
import type { ConsumerClass, ProductFamily, Quote } from "../types";
import { transitForms } from "./form";
import { transitFacts, transitPolicy } from "./policy";
import { insurableGoodsValue, TRANSIT_TYPES, transitPremiumKobo } from "./pricing";

const transitSeed = z.object({ goodsValue: insurableGoodsValue });

function quotePremium(type: string, seed: unknown): Quote {
  requireType(TRANSIT_TYPES, "gtrn", type);
  const { goodsValue } = parseWith(transitSeed, seed);
  // No insrncDrtn: cover runs from departure to estimated arrival (spec 2.5).
  return { premiumKobo: transitPremiumKobo(goodsValue), basis: { goodsValue } };
}

export const transit: ProductFamily = {
  ctgry: "gtrn",
  name: "Goods in transit",
  types: TRANSIT_TYPES,
  premiumUnit: "naira",
  quote: quotePremium,
  consumerRequirements(type: string, consumerClass: ConsumerClass) {
    requireType(TRANSIT_TYPES, "gtrn", type);
    // Spec 2.3 names first and last name; an organisation has only its brand name.
    const names = consumerClass === "o" ? ["name.brand"] : ["name.first", "name.last"];
    return ["class", ...names, "phoneNo", "eMail"];
  },
  policy: transitPolicy,
  forms: transitForms,
  schemas(type) {
    requireType(TRANSIT_TYPES, "gtrn", type);
    return { quote: transitSeed, addtnlFact: transitFacts };
  },
};
