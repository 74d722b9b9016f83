// Paging of every list: the page wrapper's numbers and one page of a filtered list. The defaults
// and the largest page size are the spec's, applied by the pipeline before a handler pages.
import type { components } from "../../generated/api.js";

type PageMeta = Omit<components["schemas"]["Page"], "data">;

export interface Page<T> extends PageMeta {
  data: T[];
}

export function pageMeta(totalRecords: number, pageNumber: number, pageSize: number): PageMeta {
  return { pageNumber, pageSize, totalRecords, totalPages: Math.ceil(totalRecords / pageSize) };
}

/** One page of `source`'s items that pass `keep` (null: all), in one walk: only the page's are mapped, all are tested for a true total. */
export function pageOfMatches<R, T>(
  source: readonly R[],
  keep: ((record: R) => boolean) | null,
  descending: boolean,
  pageNumber: number,
  pageSize: number,
  map: (record: R) => T,
): Page<T> {
  const first = (pageNumber - 1) * pageSize;
  const last = first + pageSize;
  const n = source.length;
  const data: T[] = [];
  if (keep === null) {
    // No filter: the page is a direct slice of the presorted array.
    for (let k = first; k < last && k < n; k++) data.push(map(source[descending ? n - 1 - k : k]));
    return { data, ...pageMeta(n, pageNumber, pageSize) };
  }
  let seen = 0;
  for (let k = 0; k < n; k++) {
    const record = source[descending ? n - 1 - k : k];
    if (!keep(record)) continue;
    if (seen >= first && seen < last) data.push(map(record));
    seen++;
  }
  return { data, ...pageMeta(seen, pageNumber, pageSize) };
}
