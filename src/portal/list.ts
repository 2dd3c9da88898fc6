/**
 * The controller half of every filtered, paged portal list (claims, financing plans, policies): the
 * query read as the filters typed and the filters the domain takes, a refused filter or page shown
 * beside its input, a page of rows, and the answer: the rows alone for "Show more", else the page.
 * The list's own module says what differs (a ListSource); the view draws it with ListSection.
 */
import type { ShellProps } from "../../views/portal/layout";
import type { ListCount } from "../../views/portal/list-section";
import type { FormProblem } from "../../views/portal/ui";
import { normaliseUuid } from "../core/ids";
import { exportHref, moreHref, PAGE_SIZE, type ResponseSet } from "./kit";
import { page, problemOf } from "./page";

export type ListQuery = Record<string, string | undefined>;

/** What one list is: its path, how its query reads, how a page of it is fetched and drawn as rows. */
export interface ListSource<Values extends object, Filters, Item, Row> {
  /** The list's page (the filter form's action, the "more" link's base); its CSV is at `${path}.csv`. */
  path: string;
  /** Rows a page: PAGE_SIZE unless the list says otherwise. */
  pageSize?: number;
  /** The filters as typed: shown again in the form, carried by the "more" and CSV links. */
  values(query: ListQuery): Values;
  /** The filters the domain takes; a refusal (a CommandError naming its field) is shown beside that input. The CSV reads the same. */
  filters(query: ListQuery): Filters;
  /** A page of what the filters select, from the cursor. */
  fetch(filters: Filters, paging: { limit: number; cursor?: string }): Promise<{ items: Item[]; nextCursor: string | null }>;
  /** The items as the table's rows. */
  rows(items: Item[]): Row[] | Promise<Row[]>;
  /** How many the filters select, shown above the list (not counted again for "Show more"). */
  count?(filters: Filters): Promise<ListCount>;
}

/** A page of a list as its view takes it; a refused filter or page gives no rows and the refusal. */
export interface ListPage<Values, Row> {
  values: Values;
  rows: Row[];
  /** The "Show more" link: the same filters, from the next cursor; null on the last page. */
  more: string | null;
  /** The same list as CSV (every page of what the filters select). */
  exportHref: string;
  /** How many the filters select, when the list counts (not on "Show more"). */
  count?: ListCount;
  problem?: FormProblem;
}

/** A page of `source` as the query asks (its filters, from its cursor). */
export async function listPage<Values extends object, Filters, Item, Row>(
  source: ListSource<Values, Filters, Item, Row>,
  query: ListQuery,
): Promise<ListPage<Values, Row>> {
  const values = source.values(query);
  const carried = { ...values } as ListQuery;
  const exported = exportHref(`${source.path}.csv`, carried);
  try {
    const filters = source.filters(query);
    const [list, count] = await Promise.all([
      source.fetch(filters, { limit: source.pageSize ?? PAGE_SIZE, cursor: query.cursor?.trim() || undefined }),
      query.rows ? undefined : source.count?.(filters),
    ]);
    return {
      values,
      rows: await source.rows(list.items),
      more: moreHref(source.path, carried, list.nextCursor),
      exportHref: exported,
      ...(count ? { count } : {}),
    };
  } catch (error) {
    return { values, rows: [], more: null, exportHref: exported, problem: problemOf(error) };
  }
}

/**
 * The answer to a list's GET: a refused filter is a 400; "Show more" (`rows` in the query) gets the
 * next rows alone, anything else the page (its fragment for htmx, in the layout otherwise).
 */
export async function listAnswer<Values extends object, Filters, Item, Row>(
  request: { request: Request; query: ListQuery; set: ResponseSet },
  source: ListSource<Values, Filters, Item, Row>,
  draw: { shell: ShellProps; rows(list: ListPage<Values, Row>): JSX.Element; page(list: ListPage<Values, Row>): JSX.Element | Promise<JSX.Element> },
): Promise<JSX.Element> {
  const list = await listPage(source, request.query);
  if (list.problem) request.set.status = 400;
  if (request.query.rows) return draw.rows(list);
  return page(request.request, draw.shell, await draw.page(list));
}

/** A list the operator narrows to one partner's records: its domain scope. */
export type PartnerScope = { partnerId?: string };

/** The partner a query chooses (`partner`, a partner id), as the scope the domain reads; none (or no id): every partner. */
export function partnerScopeOf(query: ListQuery): PartnerScope {
  const partnerId = normaliseUuid(query.partner ?? "");
  return partnerId ? { partnerId } : {};
}

/**
 * The operator's list of every partner's records (`sourceFor({})`) with a Partner filter: choosing a
 * partner lists exactly what that partner's own list scope holds, so the rule of whose records are
 * whose is the domain's, not the filter's. The choice is carried by "Show more" and the CSV.
 */
export function withPartnerFilter<Values extends object, Filters, Item, Row>(
  sourceFor: (scope: PartnerScope) => ListSource<Values, Filters, Item, Row>,
): ListSource<Values & { partner?: string }, { scope: PartnerScope; filters: Filters }, Item, Row> {
  const every = sourceFor({});
  return {
    path: every.path,
    pageSize: every.pageSize,
    values: (query) => ({ ...every.values(query), ...(partnerScopeOf(query).partnerId ? { partner: partnerScopeOf(query).partnerId } : {}) }),
    filters: (query) => ({ scope: partnerScopeOf(query), filters: every.filters(query) }),
    fetch: ({ scope, filters }, paging) => sourceFor(scope).fetch(filters, paging),
    rows: every.rows,
    ...(every.count ? { count: ({ scope, filters }: { scope: PartnerScope; filters: Filters }) => sourceFor(scope).count!(filters) } : {}),
  };
}
