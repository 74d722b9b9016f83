// Every item of a list endpoint, page by page (service-api.md 2.2).
import type { CallOptions } from "../../generated/client.js";
import { parameters } from "../../generated/facts.js";

/** The spec's largest PageSize, from the generated facts (a few bytes; a browser bundle does not carry the spec). */
export const MAX_PAGE_SIZE: number = parameters.PageSize.maximum;

/** The page wrapper as paging needs it; the generated page types (LeaveRequestPage, …) fit it. */
export interface PageLike<Item> {
  data: Item[];
  pageNumber: number;
  totalPages: number;
}

/** The query paging sets: the rest of a list operation's query passes through unchanged. */
export interface PagingQuery {
  PageNumber?: number;
  PageSize?: number;
}

export interface PaginateOptions {
  /** Cancels the request under way and ends the iteration. */
  signal?: AbortSignal;
}

/**
 * Yields every item of a list operation, page by page: from `query.PageNumber` (default 1), with
 * `query.PageSize` (default MAX_PAGE_SIZE, the fewest requests), until the page that `totalPages`
 * names or an empty page. Pass an unwrapped list method: `paginate(client.listLeaveRequests, { LeaveStatus: "Approved" })`.
 */
export async function* paginate<Q extends PagingQuery, Item>(
  list: (query?: Q, init?: CallOptions) => Promise<PageLike<Item>>,
  query?: NoInfer<Q>,
  options: PaginateOptions = {},
): AsyncGenerator<Item, void, undefined> {
  const pageSize = query?.PageSize ?? MAX_PAGE_SIZE;
  const init: CallOptions = options.signal ? { signal: options.signal } : {};
  for (let pageNumber = query?.PageNumber ?? 1; ; pageNumber++) {
    const page = await list({ ...query, PageNumber: pageNumber, PageSize: pageSize } as Q, init);
    yield* page.data;
    if (page.data.length === 0 || pageNumber >= page.totalPages) return;
  }
}

/** Every item of an async iterable, in order (for lists known to be small). */
export async function collectAll<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}
