/** The search page's view model: what was typed, how it was read, and what was found, grouped and linked for partner staff or the operator. */
import { CLAIM_STATUS_TEXT } from "../../../views/claims/claims";
import { PLAN_STATUS_TEXT } from "../../../views/financing/financing";
import { day, naira, POLICY_STATUS_TEXT } from "../../../views/format";
import type { SearchGroup, SearchPageView, SearchResult } from "../../../views/search/search";
import type { Database } from "../../db/client";
import { productName } from "../../products";
import { consumerName, consumerNamesOf, wireConsumerId } from "../consumers";
import { partnerNames } from "../partners";
import { readingWords, readQuery, SEARCHABLE } from "./reading";
import { type Found, foundNothing, type Hit, search } from "./service";

/** Whose search: a partner's staff see their own records; the operator every partner's, each named. */
type Searcher = { partnerId: string } | { operator: true };

/** Where each kind of record opens, for each surface. */
function linksFor(operator: boolean) {
  const area = operator ? "/admin" : "/portal";
  return {
    policy: (p: { id: string; reference: string }) => (operator ? `/admin/policies/${p.id}` : `/portal/policies/${encodeURIComponent(p.reference)}`),
    consumer: (id: string) => `${area}/consumers/${wireConsumerId(id)}`,
    claim: (claimNo: string) => `${area}/claims/${claimNo}`,
    plan: (planNo: string) => `${area}/financing/${planNo}`,
  };
}

const insured = (names: Map<string, string>, consumerId: string) => {
  const name = names.get(consumerId);
  return name ? `Insured: ${name}` : "";
};

/** A policy as people name it: its number once approved, its reference before. */
const policyName = (p: { policyNo: string | null; reference: string }) => p.policyNo ?? p.reference;

async function groupsOf(db: Database, found: Found, operator: boolean): Promise<SearchGroup[]> {
  const links = linksFor(operator);
  const [insuredNames, partners] = await Promise.all([
    consumerNamesOf(db, [
      ...found.policies.map((h) => h.record.consumerId),
      ...found.claims.map((h) => h.record.consumerId),
      ...found.plans.map((h) => h.record.consumerId),
    ]),
    operator
      ? partnerNames(
          db,
          [...found.consumers, ...found.policies, ...found.claims, ...found.plans].map((h) => h.record.partnerId),
        )
      : undefined,
  ]);
  const common = (hit: Hit<{ partnerId: string }>) => ({ matched: hit.matched, partnerName: partners?.get(hit.record.partnerId) });
  const facts = (...items: string[]) => items.filter(Boolean);
  const groups: SearchGroup[] = [
    {
      id: "policies",
      heading: "Policies",
      more: found.more.has("policies"),
      results: found.policies.map(
        (hit): SearchResult => ({
          ...common(hit),
          href: links.policy(hit.record),
          title: `Policy ${policyName(hit.record)}`,
          facts: facts(
            productName(hit.record.productCode),
            insured(insuredNames, hit.record.consumerId),
            POLICY_STATUS_TEXT[hit.record.status] ?? "",
            `issued ${day(hit.record.createdAt)}`,
          ),
          test: hit.record.mode === "test",
        }),
      ),
    },
    {
      id: "consumers",
      heading: "Consumers",
      more: found.more.has("consumers"),
      results: found.consumers.map(
        (hit): SearchResult => ({
          ...common(hit),
          href: links.consumer(hit.record.id),
          title: consumerName(hit.record.profile) || "Consumer without a name",
          facts: facts(
            hit.record.class === "o" ? "Organisation" : "Individual",
            String(hit.record.profile.phoneNo ?? ""),
            hit.record.email ?? "",
            `registered ${day(hit.record.createdAt)}`,
          ),
          test: false,
        }),
      ),
    },
    {
      id: "claims",
      heading: "Claims",
      more: found.more.has("claims"),
      results: found.claims.map(
        (hit): SearchResult => ({
          ...common(hit),
          href: links.claim(hit.record.claimNo),
          title: `Claim ${hit.record.claimNo}`,
          facts: facts(
            `on policy ${policyName({ policyNo: hit.record.policyNo, reference: hit.record.policyReference })}`,
            insured(insuredNames, hit.record.consumerId),
            CLAIM_STATUS_TEXT[hit.record.status] ?? "",
            `${naira(hit.record.claimedKobo)} claimed`,
          ),
          test: hit.record.mode === "test",
        }),
      ),
    },
    {
      id: "plans",
      heading: "Financing plans",
      more: found.more.has("plans"),
      results: found.plans.map(
        (hit): SearchResult => ({
          ...common(hit),
          href: links.plan(hit.record.planNo),
          title: `Financing plan ${hit.record.planNo}`,
          facts: facts(
            `for policy ${policyName({ policyNo: hit.record.policyNo, reference: hit.record.policyReference })}`,
            insured(insuredNames, hit.record.consumerId),
            PLAN_STATUS_TEXT[hit.record.status] ?? "",
            `${naira(hit.record.premiumKobo)} premium`,
          ),
          test: hit.record.mode === "test",
        }),
      ),
    },
  ];
  return groups.filter((group) => group.results.length);
}

/** The search page for `typed` (a query parameter), and its status: 400 when what was typed cannot be searched. */
export async function searchAnswer(db: Database, searcher: Searcher, typed: unknown): Promise<{ status: number; view: SearchPageView }> {
  const operator = "operator" in searcher;
  const query = typeof typed === "string" ? typed.trim() : "";
  const view: SearchPageView = {
    action: operator ? "/admin/search" : "/portal/search",
    heading: operator ? "Search every partner's records" : "Search",
    query,
    searchable: SEARCHABLE,
    readAs: [],
    groups: [],
  };
  if (!query) return { status: 200, view };
  const reading = readQuery(query);
  if ("problem" in reading) return { status: 400, view: { ...view, problem: reading.problem } };
  const found = await search(db, "operator" in searcher ? {} : { partnerId: searcher.partnerId }, reading.readings);
  return {
    status: 200,
    view: { ...view, readAs: reading.readings.map(readingWords), groups: foundNothing(found) ? [] : await groupsOf(db, found, operator) },
  };
}
