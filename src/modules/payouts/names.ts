/**
 * Does the name the bank holds for an account belong to the insured? The tolerance of the account
 * name enquiry (docs/payouts.md, "Whose account is it"), pure: a claim pays out automatically only
 * when this says yes; otherwise an administrator looks at both names and confirms.
 *
 * The rule, in order:
 * 1. Both names are normalised: Unicode NFKD with the accents dropped (Ọ̀ → O, Ş → S), upper case;
 *    apostrophes and full stops vanish (O'Brien → OBRIEN, J.K. → JK, Ltd. → LTD); every other
 *    character that is not a letter or a digit separates words (Adeyemi-Johnson → ADEYEMI JOHNSON).
 * 2. Titles and honorifics are dropped wherever they stand (MR, DR, CHIEF, ALHAJI, … TITLES below).
 * 3. An insured whose name holds a company word (LTD, PLC, VENTURES, … COMPANY_WORDS) is an
 *    organisation: with the company words (and AND, THE, OF) left out of both names, the two must
 *    hold the same words, each word of one matched to its own word of the other.
 * 4. A person: the account name must not be a business name (no company word), and the insured's
 *    words are matched to the account name's, each to its own word, in any order. Two words match
 *    when they are the same, or differ by one letter (one changed, added, dropped, or two neighbours
 *    swapped) and both have five letters or more, or when one is a single letter that begins the
 *    other (an initial). The names match when at least two of the insured's words are found as
 *    words, not initials, and either every word of the insured is found (the account may add
 *    middle names) or every word of the account name is (the bank left out a middle name) — never
 *    both sides having a word the other lacks. A one-word name matches only the same one word.
 *
 * The word order of either name never matters, nor titles, case or accents.
 */

/** Titles, honorifics, ranks and suffixes Nigerian names carry, which no bank or insurer agrees on: dropped from both names. */
const TITLES = new Set([
  "MR",
  "MRS",
  "MS",
  "MISS",
  "MASTER",
  "DR",
  "DOCTOR",
  "PROF",
  "PROFESSOR",
  "ENGR",
  "ENGINEER",
  "ARC",
  "ARCH",
  "BARR",
  "BARRISTER",
  "ESQ",
  "CHIEF",
  "ALHAJI",
  "ALHAJA",
  "ALH",
  "HAJI",
  "HAJIA",
  "HAJIYA",
  "MALLAM",
  "MALAM",
  "PASTOR",
  "PST",
  "REV",
  "REVD",
  "REVEREND",
  "BISHOP",
  "EVANG",
  "EVANGELIST",
  "APOSTLE",
  "PROPHET",
  "PROPHETESS",
  "DEACON",
  "DEACONESS",
  "HRH",
  "HRM",
  "SIR",
  "LADY",
  "DAME",
  "OTUNBA",
  "OLOYE",
  "HON",
  "HONOURABLE",
  "SEN",
  "SENATOR",
  "JNR",
  "JR",
  "SNR",
]);

/** Words that make a name an organisation's; left out when two organisations' names are compared. */
const COMPANY_WORDS = new Set([
  "LTD",
  "LIMITED",
  "PLC",
  "NIG",
  "NIGERIA",
  "CO",
  "COMPANY",
  "ENTERPRISE",
  "ENTERPRISES",
  "VENTURES",
  "GLOBAL",
  "SERVICES",
  "INTERNATIONAL",
  "INTL",
  "INC",
  "LLC",
  "LLP",
  "GROUP",
  "HOLDINGS",
  "INDUSTRIES",
  "RESOURCES",
  "CONCEPTS",
  "SOLUTIONS",
  "TECHNOLOGIES",
  "ASSOCIATES",
  "TRADING",
  "INVESTMENT",
  "INVESTMENTS",
]);

/** Joining words of organisations' names ("Okafor and Sons", "The Hub"): left out with the company words. */
const CONNECTORS = new Set(["AND", "THE", "OF"]);

/** Longer names are not compared (a name is a few words; a list of hundreds is not a name): an administrator decides. */
const MAX_WORDS = 12;
/** Longer text is not read at all. */
const MAX_CHARACTERS = 300;

/** The words of a name, normalised as rule 1 says, titles left in. */
function normalisedWords(name: string): string[] {
  return name
    .slice(0, MAX_CHARACTERS)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/['’‘`.]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** A name's words with its titles dropped (all of them when nothing else is left). */
export function nameWords(name: string): string[] {
  const words = normalisedWords(name);
  const untitled = words.filter((word) => !TITLES.has(word));
  return untitled.length > 0 ? untitled : words;
}

/** Whether a name is an organisation's (it holds a company word). */
export const isOrganisationName = (words: readonly string[]) => words.some((word) => COMPANY_WORDS.has(word));

/** At most one letter apart (one changed, added, dropped, or two neighbours swapped): an optimal-string-alignment distance ≤ 1. */
function oneLetterApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  if (a.length === b.length) {
    const restA = a.slice(start + 1);
    const restB = b.slice(start + 1);
    if (restA === restB) return true;
    // Two neighbours swapped.
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.slice(start + 1) === shorter.slice(start);
}

type Link = "same" | "near" | "initial";

/** How two words match, if they do. */
function link(a: string, b: string, initials: boolean): Link | null {
  // A lone letter in a person's name is an initial, not a name found.
  if (a === b) return initials && a.length === 1 ? "initial" : "same";
  const letters = (word: string) => [...word].length;
  if (letters(a) >= 5 && letters(b) >= 5 && oneLetterApart(a, b)) return "near";
  if (!initials) return null;
  if (letters(a) === 1 && b.startsWith(a)) return "initial";
  if (letters(b) === 1 && a.startsWith(b)) return "initial";
  return null;
}

interface Matching {
  /** Pairs of (insured word index, account word index, how). */
  pairs: { insured: number; account: number; how: Link }[];
  /** Pairs found as words (same or near), not initials. */
  words: number;
}

/**
 * The best matching of the insured's words to the account's, each word used once: the most pairs,
 * and among those the most found as words. Exhaustive over which account words are taken (at most
 * 2^12 sets), so it never misses a matching a greedy choice would.
 */
function bestMatching(insured: readonly string[], account: readonly string[], initials: boolean): Matching {
  const links = insured.map((word) => account.map((other) => link(word, other, initials)));
  const memo = new Map<number, Matching>();
  const score = (matching: Matching) => matching.pairs.length * 100 + matching.words;
  const solve = (index: number, taken: number): Matching => {
    if (index === insured.length) return { pairs: [], words: 0 };
    const key = index * 8192 + taken;
    const known = memo.get(key);
    if (known) return known;
    let best = solve(index + 1, taken);
    for (let j = 0; j < account.length; j++) {
      const how = links[index]![j];
      if (!how || taken & (1 << j)) continue;
      const rest = solve(index + 1, taken | (1 << j));
      const candidate = { pairs: [{ insured: index, account: j, how }, ...rest.pairs], words: rest.words + (how === "initial" ? 0 : 1) };
      if (score(candidate) > score(best)) best = candidate;
    }
    memo.set(key, best);
    return best;
  };
  return solve(0, 0);
}

const listed = (words: readonly string[]) => words.join(" ");

/** What each matched pair was found as, in words: "EZE", "CHINEDU as CHINEDUM", "ADAEZE as the initial A". */
function foundWords(insured: readonly string[], account: readonly string[], matching: Matching): string {
  return matching.pairs
    .map(({ insured: i, account: j, how }) => {
      const mine = insured[i]!;
      const theirs = account[j]!;
      if (how === "same") return mine;
      if (how === "near") return `${mine} as ${theirs}`;
      return theirs.length === 1 ? `${mine} as the initial ${theirs}` : `the initial ${mine} as ${theirs}`;
    })
    .join(", ");
}

/** Whether the account name belongs to the insured within the tolerance, and why, in words an administrator reads. */
export function namesMatch(insured: string, accountName: string): { match: boolean; why: string } {
  const mine = nameWords(insured);
  const theirs = nameWords(accountName);
  if (mine.length === 0) return { match: false, why: "no match: the insured's name has no letters to compare" };
  if (theirs.length === 0) return { match: false, why: "no match: the account name has no letters to compare" };
  if (mine.length > MAX_WORDS || theirs.length > MAX_WORDS)
    return { match: false, why: `no match: a name of more than ${MAX_WORDS} words is not compared automatically` };

  if (isOrganisationName(mine)) {
    const distinctive = (words: readonly string[]) => words.filter((word) => !COMPANY_WORDS.has(word) && !CONNECTORS.has(word));
    const [left, right] = distinctive(mine).length > 0 ? [distinctive(mine), distinctive(theirs)] : [mine, theirs];
    const matching = bestMatching(left, right, false);
    const missing = left.filter((_, i) => !matching.pairs.some((pair) => pair.insured === i));
    const extra = right.filter((_, j) => !matching.pairs.some((pair) => pair.account === j));
    if (missing.length === 0 && extra.length === 0)
      return { match: true, why: `matches: the organisation's words ${foundWords(left, right, matching)} are the account name's, company words aside` };
    const parts = [
      missing.length > 0 ? `${listed(missing)} of the insured is not in the account name` : "",
      extra.length > 0 ? `${listed(extra)} of the account name is not in the insured's name` : "",
    ].filter(Boolean);
    return { match: false, why: `no match: ${parts.join(", and ")} (an organisation's words must be the same, company words aside)` };
  }

  const business = theirs.filter((word) => COMPANY_WORDS.has(word));
  if (business.length > 0) return { match: false, why: `no match: the insured is a person and the account is in a business name (${listed(business)})` };

  const matching = bestMatching(mine, theirs, true);
  const missing = mine.filter((_, i) => !matching.pairs.some((pair) => pair.insured === i));
  const extra = theirs.filter((_, j) => !matching.pairs.some((pair) => pair.account === j));
  const oneWord = mine.length === 1 && theirs.length === 1;
  const found = foundWords(mine, theirs, matching);
  if (matching.words < (oneWord ? 1 : 2)) {
    const why = oneWord
      ? `${mine[0]} is not the account name ${theirs[0]}`
      : mine.length === 1 || theirs.length === 1
        ? "a one-word name matches only the same one word"
        : `${matching.words === 0 ? "none" : "only one"} of the insured's names is in the account name as a word (two must be)${found ? `; found ${found}` : ""}`;
    return { match: false, why: `no match: ${why}` };
  }
  if (missing.length > 0 && extra.length > 0)
    return {
      match: false,
      why: `no match: ${listed(missing)} of the insured is not in the account name, and ${listed(extra)} of the account name is not one of the insured's names`,
    };
  const note = missing.length > 0 ? `; the account name leaves out ${listed(missing)}` : extra.length > 0 ? `; the account name adds ${listed(extra)}` : "";
  return { match: true, why: `matches: ${found} found in the account name${note}` };
}
