/** The fraud signals in plain words, for the operator's desk and answers: no rule keys, no codes. */
import { day, naira } from "../../../views/format";
import type { ClaimSignals, Flag, IdentifierKind } from "./rules";

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-NG")} ${n === 1 ? one : many}`;
const and = (words: string[]) => (words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`);

const ITEM_WORDS: Record<"same_device" | "same_vehicle" | "same_bank_account", (kinds: IdentifierKind[]) => string> = {
  same_device: (kinds) => (kinds.includes("imei") ? "phone (IMEI)" : "laptop (serial number)"),
  same_vehicle: (kinds) => `vehicle (${and(kinds.map((k) => (k === "vin" ? "VIN" : "plate")))})`,
  same_bank_account: () => "bank account",
};

const CLAIMANT_WORDS: Partial<Record<IdentifierKind, string>> = {
  consumer: "the same insured",
  phone: "phone number",
  email: "e-mail",
  national_id: "identity number",
};

/** One flag as a sentence, e.g. "The same phone (IMEI) is claimed on 2 other policies, at 1 other partner." */
export function flagWords(flag: Flag): string {
  switch (flag.rule) {
    case "same_device":
    case "same_vehicle":
    case "same_bank_account": {
      const { kinds, otherPolicies, otherPartners, atLeast } = flag.inputs;
      const policies = `${atLeast ? `${count(otherPolicies, "other policy", "other policies")} or more` : count(otherPolicies, "other policy", "other policies")}`;
      const where = otherPartners ? `, at ${count(otherPartners, "other partner")}` : ", all at this partner";
      return `The same ${ITEM_WORDS[flag.rule](kinds)} is claimed on ${policies}${where}.`;
    }
    case "early_claim": {
      const { coverFirstDay, incidentDate, days } = flag.inputs;
      return days === 0
        ? `The incident (${day(incidentDate)}) was on the day the cover started.`
        : `The incident (${day(incidentDate)}) was ${count(days, "day")} after the cover started (${day(coverFirstDay)}).`;
    }
    case "photo_date": {
      const { before, after, coverFirstDay, submittedOn, photos } = flag.inputs;
      const dated = (list: string[], why: string) =>
        `${photos === 1 ? "is" : `${list.length} ${list.length === 1 ? "is" : "are"}`} dated ${and([...new Set(list)].map((d) => day(d)))}, ${why}`;
      const parts = [
        before.length ? dated(before, `before the cover started (${day(coverFirstDay)})`) : "",
        after.length ? dated(after, `after the claim was made (${day(submittedOn)})`) : "",
      ].filter(Boolean);
      return `${photos === 1 ? "The photograph with the claim" : `Of the ${photos} photographs with the claim,`} ${parts.join("; ")}.`;
    }
    case "at_ceiling": {
      const { claimedKobo, ceilingKobo, percent } = flag.inputs;
      return `The amount claimed, ${naira(claimedKobo)}, is ${percent}% of the sum insured, ${naira(ceilingKobo)}.`;
    }
    case "earlier_claims": {
      const { earlierClaims, atThisPartner, atOtherPartners, kinds, atLeast } = flag.inputs;
      const where = and(
        [atThisPartner ? `${atThisPartner} at this partner` : "", atOtherPartners ? `${atOtherPartners} at other partners` : ""].filter(Boolean),
      );
      const by = and(kinds.map((k) => CLAIMANT_WORDS[k] ?? k));
      return `The claimant made ${count(earlierClaims, "earlier claim")}${atLeast ? " or more" : ""}: ${where} (found by ${by}).`;
    }
  }
}

/** The whole finding in a sentence: the score, and what it means for the decision. */
export function signalsSummary(signals: ClaimSignals): string {
  if (!signals.flags.length) return "No fraud rule flagged this claim.";
  const flagged = `${count(signals.flags.length, "signal")}, score ${signals.score}`;
  return signals.needsSecondReviewer
    ? `${flagged}: a second administrator must confirm the decision on this claim.`
    : `${flagged}: below the score that needs a second administrator.`;
}
