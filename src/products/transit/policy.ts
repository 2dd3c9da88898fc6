/** Issuing goods-in-transit cover (spec 2.5): one declared consignment on one trip within Nigeria. */
import { z } from "zod";
import { badRequest } from "../../core/errors";
import { watTimestamp } from "../../core/time";
import { isoDate, isoDateTime } from "../../core/validation";
import { factError } from "../credit-life/parties";
import { checkProformaDate, goodsDescription, invoiceReference, placesOf, routeOf, type VoyageStop, voyage } from "../marine/cargo";
import { parseFacts, watDateTime } from "../policy-helpers";
import { printNairaFigure, requireType } from "../shared";
import type { PolicyRules } from "../types";
import { insurableGoodsValue, TRANSIT_TYPES, transitPremiumKobo } from "./pricing";

const GOODS_TYPES = ["gnrl", "elct", "frd", "txtl", "appl", "fod", "bldg", "tool"] as const;
type GoodsType = (typeof GOODS_TYPES)[number];
const GOODS_TYPE_NAMES: Readonly<Record<GoodsType, string>> = {
  gnrl: "general merchandise",
  elct: "electronics",
  frd: "furniture",
  txtl: "clothing and textiles",
  appl: "domestic appliances",
  fod: "packaged foods",
  bldg: "building materials",
  tool: "tools",
};

/** Chosen: a departure up to an hour old is still accepted (the request may follow the truck out of the gate). */
const DEPARTURE_GRACE_MS = 3_600_000;
/** Chosen: a domestic road transit takes days; a longer cover would be storage, not transit. */
const MAX_TRANSIT_DAYS = 30;

// Strict: a misspelt field would otherwise be dropped silently from the policy.
export const transitFacts = z.strictObject({
  goodsType: z.enum(GOODS_TYPES),
  goodsDscrptn: goodsDescription,
  goodsValue: insurableGoodsValue,
  voyage,
  dprtrDateTime: isoDateTime,
  estmtdArrvlDateTime: isoDateTime,
  proformaInvoice: invoiceReference,
  proformaDate: isoDate,
});
type TransitFacts = z.output<typeof transitFacts>;

/** Case, and the spacing within a name, do not make two cities different. */
const cityKey = (city: string) => city.toLowerCase().replace(/\s+/g, " ");

/** A transit is one trip: one origin, one destination, in different cities. */
function checkTrip(stops: readonly VoyageStop[]): void {
  if (stops.length !== 2)
    throw factError("voyage", `must have exactly 2 entries for goods in transit, one "origin" and one "destination"; received ${stops.length}`);
  const [origin] = placesOf(stops, "origin");
  const [destination] = placesOf(stops, "destination");
  if (cityKey(origin!) === cityKey(destination!)) throw factError("voyage", `must name different cities as origin and destination; both are "${destination}"`);
}

/** Spec 2.5 excluded goods, matched as words (singular or plural, any case) in the description. */
const EXCLUDED_GOODS: readonly (readonly [name: string, words: RegExp])[] = [
  ["gas cylinders", /\bgas[\s-]*cylinders?\b/i],
  ["chemicals", /\bchemicals?\b/i],
  ["ceramic tiles", /\bceramic[\s-]*tiles?\b/i],
  ["financial instruments", /\bfinancial[\s-]*instruments?\b/i],
  ["glassware", /\bglass[\s-]*wares?\b/i],
  ["explosives", /\bexplosives?\b/i],
  ["jewellery", /\bjewel(?:le|e)?ry\b/i],
  ["artwork", /\bart[\s-]*works?\b/i],
  ["perishables", /\bperishables?\b/i],
];

export const transitPolicy: PolicyRules = {
  terms(type, request, { now }) {
    requireType(TRANSIT_TYPES, "gtrn", type);
    if (request.insrncDrtn !== undefined)
      throw badRequest(
        "seed.insrncDrtn must be omitted for goods in transit: cover runs from addtnlFact.dprtrDateTime to addtnlFact.estmtdArrvlDateTime",
        "seed.insrncDrtn",
      );
    const facts = parseFacts(transitFacts, request.addtnlFact);
    checkTrip(facts.voyage);
    const departure = watDateTime(facts.dprtrDateTime);
    const arrival = watDateTime(facts.estmtdArrvlDateTime);
    if (departure.getTime() < now.getTime() - DEPARTURE_GRACE_MS)
      throw factError(
        "dprtrDateTime",
        `must not be in the past: goods already on the road cannot be insured; received "${facts.dprtrDateTime}", now is ${watTimestamp(now)} WAT`,
      );
    if (arrival <= departure)
      throw factError("estmtdArrvlDateTime", `must be after dprtrDateTime ("${facts.dprtrDateTime}"); received "${facts.estmtdArrvlDateTime}"`);
    if (arrival.getTime() - departure.getTime() > MAX_TRANSIT_DAYS * 86_400_000)
      throw factError(
        "estmtdArrvlDateTime",
        `must be at most ${MAX_TRANSIT_DAYS} days after dprtrDateTime ("${facts.dprtrDateTime}"); received "${facts.estmtdArrvlDateTime}"`,
      );
    checkProformaDate(facts.proformaDate, now);
    return {
      premiumKobo: transitPremiumKobo(facts.goodsValue),
      coverStart: departure,
      coverEnd: arrival,
      facts,
      liveRoute: "insurer",
      printed: [
        ["Goods", `${facts.goodsDscrptn} (${GOODS_TYPE_NAMES[facts.goodsType]})`],
        ["Goods value", printNairaFigure(facts.goodsValue)],
        ["Voyage", routeOf(facts.voyage)],
        ["Departure", `${facts.dprtrDateTime} WAT`],
        ["Estimated arrival", `${facts.estmtdArrvlDateTime} WAT`],
        ["Proforma invoice", `${facts.proformaInvoice} of ${facts.proformaDate}`],
      ],
    };
  },

  // Every goodsType code is an insurable category, so only the description can name excluded goods.
  declineReason(_type, terms) {
    const { goodsDscrptn } = terms.facts as TransitFacts;
    const named = EXCLUDED_GOODS.filter(([, words]) => words.test(goodsDscrptn)).map(([name]) => name);
    if (!named.length) return null;
    return (
      `Goods in an excluded category: the goods description "${goodsDscrptn}" names ${named.join(" and ")}, which goods in transit cover ` +
      `excludes (excluded: ${EXCLUDED_GOODS.map(([name]) => name).join(", ")}).`
    );
  },

  // Not in spec 2.6 for goods in transit; chosen: a PDF returned inline, like the other insurer-issued certificates.
  certificate() {
    return { type: "pdf", delivery: "inline" };
  },
};
