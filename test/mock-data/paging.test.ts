import { describe, expect, it } from "vitest";
import { pageMeta, pageOfMatches, type Page } from "../../mock/data/paging.js";

/** The reference: slice the full list; a page past the end is empty and keeps the true totals. */
function paginate<T>(items: readonly T[], pageNumber: number, pageSize: number): Page<T> {
  const start = Math.min((pageNumber - 1) * pageSize, items.length);
  return { data: items.slice(start, start + pageSize), ...pageMeta(items.length, pageNumber, pageSize) };
}

type Case = [string, { given: { total: number; page: number; size: number }; want: { items: number[]; totalPages: number } }];

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

const cases: Case[] = [
  ["nothing at all: no pages, empty data", { given: { total: 0, page: 1, size: 25 }, want: { items: [], totalPages: 0 } }],
  ["one item", { given: { total: 1, page: 1, size: 25 }, want: { items: [0], totalPages: 1 } }],
  ["exactly one full page", { given: { total: 25, page: 1, size: 25 }, want: { items: range(0, 25), totalPages: 1 } }],
  ["one more than a page makes two pages", { given: { total: 26, page: 1, size: 25 }, want: { items: range(0, 25), totalPages: 2 } }],
  ["the last, partial page", { given: { total: 26, page: 2, size: 25 }, want: { items: [25], totalPages: 2 } }],
  ["a page past the end is empty with true totals", { given: { total: 26, page: 3, size: 25 }, want: { items: [], totalPages: 2 } }],
  ["far past the end", { given: { total: 26, page: 1_000_000, size: 100 }, want: { items: [], totalPages: 1 } }],
  ["a middle page", { given: { total: 100, page: 3, size: 10 }, want: { items: range(20, 30), totalPages: 10 } }],
  ["page size 1", { given: { total: 3, page: 3, size: 1 }, want: { items: [2], totalPages: 3 } }],
  ["the largest page size", { given: { total: 250, page: 3, size: 100 }, want: { items: range(200, 250), totalPages: 3 } }],
];

describe("paging", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    const page = pageOfMatches(range(0, given.total), null, false, given.page, given.size, (x) => x);
    expect(page).toEqual({ data: want.items, pageNumber: given.page, pageSize: given.size, totalRecords: given.total, totalPages: want.totalPages });
  });

  it.each(cases)("with a filter that keeps everything, the same page: %s", (_name, { given, want }) => {
    const page = pageOfMatches(range(0, given.total), () => true, false, given.page, given.size, (x) => x);
    expect(page).toEqual({ data: want.items, pageNumber: given.page, pageSize: given.size, totalRecords: given.total, totalPages: want.totalPages });
  });

  it.each([
    [false, 2, 3],
    [true, 2, 3],
    [false, 4, 3],
    [true, 1, 100],
  ] as const)("pageOfMatches walks the filtered list (descending %s, page %i of size %i) as filtering then paging would", (descending, page, size) => {
    const items = range(0, 20);
    const keep = (x: number) => x % 3 !== 0;
    const direct = items.filter(keep);
    if (descending) direct.reverse();
    expect(pageOfMatches(items, keep, descending, page, size, (x) => x * 10)).toEqual(paginate(direct.map((x) => x * 10), page, size));
  });
});
