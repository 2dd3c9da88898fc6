import { Badge } from "../portal/ui";

/** One record found: where it opens, what it is, and which of its fields matched what was typed. */
export interface SearchResult {
  href: string;
  title: string;
  /** Short facts beside the title: product, insured, status, amount. */
  facts: string[];
  test: boolean;
  /** The operator's search names whose record it is. */
  partnerName?: string;
  matched: { label: string; value: string }[];
}

export interface SearchGroup {
  id: string;
  heading: string;
  results: SearchResult[];
  /** More matched than are shown. */
  more: boolean;
}

export interface SearchPageView {
  /** /portal/search or /admin/search. */
  action: string;
  heading: string;
  query: string;
  /** What the box finds things by, in words. */
  searchable: string;
  /** Why the query cannot be searched (too short, too long), beside the box. */
  problem?: string;
  /** What the query was read as ("a registration plate (LND123AB)"), for the answer. */
  readAs: string[];
  groups: SearchGroup[];
}

const QUERY_INPUT = "search-q";

/** The search box of the portal's header, on every page: a plain GET form, so it works without JavaScript. */
export function HeaderSearch(props: { action: string }) {
  return (
    <form class="site-search" role="search" aria-label="Quick search" method="get" action={props.action}>
      <label for="site-q" class="visually-hidden">
        Find a policy, consumer, claim or plan
      </label>
      <input id="site-q" type="search" name="q" placeholder="Policy, name, phone, plate…" autocomplete="off" />
      <button type="submit" class="secondary">
        Search
      </button>
    </form>
  );
}

function Result(props: { result: SearchResult }) {
  const { result } = props;
  return (
    <li class="result">
      <p class="result-title">
        <a href={result.href} safe>
          {result.title}
        </a>
        {result.test ? (
          <>
            {" "}
            <Badge tone="info" text="Test" />
          </>
        ) : (
          ""
        )}
      </p>
      {result.partnerName ? (
        <p class="result-partner">
          Partner: <strong safe>{result.partnerName}</strong>
        </p>
      ) : (
        ""
      )}
      <p class="muted" safe>
        {result.facts.join(" · ")}
      </p>
      <p class="result-matched">
        Matched{" "}
        {result.matched.map((m, index) => (
          <>
            {index ? ", " : ""}
            <span safe>{m.label}</span>: <mark safe>{m.value}</mark>
          </>
        ))}
      </p>
    </li>
  );
}

/** The search page: the box, what the query was read as, and what was found, grouped and linked. */
export function SearchPage(props: { view: SearchPageView }) {
  const { view } = props;
  const found = view.groups.reduce((sum, group) => sum + group.results.length, 0);
  const more = view.groups.some((group) => group.more);
  const describedBy = ["search-hint", view.problem ? "search-error" : ""].filter(Boolean).join(" ");
  return (
    <section>
      <h1 safe>{view.heading}</h1>
      <form class="search" role="search" aria-label="Search" method="get" action={view.action}>
        <label for={QUERY_INPUT}>Find a policy, consumer, claim or plan</label>
        <input
          id={QUERY_INPUT}
          type="search"
          name="q"
          value={view.query}
          aria-describedby={describedBy}
          aria-invalid={view.problem ? "true" : undefined}
          autofocus={!view.query || view.problem ? true : undefined}
        />
        <button type="submit">Search</button>
        <p id="search-hint" class="hint" safe>
          {`Type ${view.searchable}.`}
        </p>
        {view.problem ? (
          <p id="search-error" class="error" safe>
            {view.problem}
          </p>
        ) : (
          ""
        )}
      </form>
      {view.query && !view.problem && found === 0 ? (
        <div class="empty" role="status">
          <p safe>{`Nothing found for “${view.query}”.`}</p>
          <p safe>{`It was looked for as ${sentenceList(view.readAs)}.`}</p>
          <p safe>{`You can search by ${view.searchable}.`}</p>
        </div>
      ) : (
        ""
      )}
      {found ? (
        <p role="status" safe>
          {`${more ? "More than " : ""}${found} found for “${view.query}”, looked for as ${sentenceList(view.readAs)}.`}
        </p>
      ) : (
        ""
      )}
      {view.groups.map((group) => (
        <section aria-labelledby={`${group.id}-heading`} class="result-group">
          <h2 id={`${group.id}-heading`} safe>
            {`${group.heading} (${group.more ? `${group.results.length}+` : group.results.length})`}
          </h2>
          <ul class="results">
            {group.results.map((result) => (
              <Result result={result} />
            ))}
          </ul>
          {group.more ? (
            <p class="muted" safe>
              {`More than ${group.results.length} match: the newest are shown. Type more of the number or the name to narrow it.`}
            </p>
          ) : (
            ""
          )}
        </section>
      ))}
    </section>
  );
}

/** "a, b and c". */
const sentenceList = (items: string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
