// Paging rules of every list (service-api.md 2.2 and 8): the page wrapper's numbers agree with each
// other and with the items, the defaults apply when PageNumber or PageSize is absent, and pages do
// not overlap.
import { fromProblems, notChecked, passed, violation, type Finding, type Problem } from "../results.js";

export interface PageWrapper {
  data: unknown[];
  pageNumber: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
}

/** The page wrapper inside an envelope, or undefined when the body carries none. */
export function pageOf(body: unknown): PageWrapper | undefined {
  const data = (body as any)?.data;
  if (!data || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.data)) return undefined;
  return data as PageWrapper;
}

export interface PageAsked {
  pageNumber?: number;
  pageSize?: number;
}

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;

/**
 * What breaks paging coherence in a list answer (service-api.md 2.2), each a Problem of rule
 * "paging" at the field at fault: the page wrapper is there with whole numbers, pageNumber and
 * pageSize are the ones asked for (or the defaults), totalPages follows from totalRecords and
 * pageSize, and the page holds as many items as those numbers give.
 */
export function pageProblems(body: unknown, asked: PageAsked, defaultPageSize: number): Problem[] {
  const problem = (field: string, message: string): Problem => ({ rule: "paging", pointer: field ? `/data/${field}` : "/data", message });
  const page = pageOf(body);
  if (!page) return [problem("", "no page wrapper (data.data array) in the answer")];
  const { pageNumber, pageSize, totalRecords, totalPages, data } = page;
  for (const [name, value] of Object.entries({ pageNumber, pageSize, totalRecords, totalPages })) {
    if (!isCount(value)) return [problem(name, `${name} is ${JSON.stringify(value)}, not a whole number`)];
  }
  const problems: Problem[] = [];
  const wantNumber = asked.pageNumber ?? 1;
  const wantSize = asked.pageSize ?? defaultPageSize;
  if (pageNumber !== wantNumber) problems.push(problem("pageNumber", `pageNumber is ${pageNumber}, asked for ${asked.pageNumber ?? "none (default 1)"}`));
  if (pageSize !== wantSize) {
    problems.push(problem("pageSize", `pageSize is ${pageSize}, ${asked.pageSize === undefined ? `default ${defaultPageSize} expected when PageSize is absent` : `asked for ${asked.pageSize}`}`));
  }
  if (pageSize > 0) {
    const pages = Math.ceil(totalRecords / pageSize);
    if (totalPages !== pages) problems.push(problem("totalPages", `totalPages is ${totalPages} but totalRecords ${totalRecords} / pageSize ${pageSize} gives ${pages}`));
    const before = (pageNumber - 1) * pageSize;
    const expected = Math.max(0, Math.min(pageSize, totalRecords - before));
    if (data.length !== expected) {
      problems.push(problem("data", `page ${pageNumber} holds ${data.length} items but totalRecords ${totalRecords} and pageSize ${pageSize} give ${expected}`));
    }
  }
  return problems;
}

export function checkPageCoherence(body: unknown, asked: PageAsked, defaultPageSize: number): Finding {
  const problems = pageProblems(body, asked, defaultPageSize);
  const page = pageOf(body);
  if (!page || problems.length) return fromProblems(problems.map((p) => p.message), "");
  return passed(`page ${page.pageNumber} of ${page.totalPages}, ${page.data.length} items of ${page.totalRecords}, pageSize ${page.pageSize}`);
}

/** Two pages of the same list share no item and agree on the totals. */
export function checkPagesAgree(first: unknown, second: unknown): Finding {
  const a = pageOf(first);
  const b = pageOf(second);
  if (!a || !b) return notChecked("a page is missing its page wrapper");
  const problems: string[] = [];
  if (a.totalRecords !== b.totalRecords) problems.push(`totalRecords differs between pages (${a.totalRecords} and ${b.totalRecords})`);
  const ids = new Set(a.data.map((i: any) => i?.id));
  const repeated = b.data.filter((i: any) => ids.has(i?.id)).map((i: any) => String(i?.id));
  if (repeated.length) problems.push(`page ${b.pageNumber} repeats ${repeated.length} item(s) of page ${a.pageNumber} (${repeated.slice(0, 2).join(", ")})`);
  if (b.data.length === 0 && b.pageNumber <= b.totalPages) problems.push(`page ${b.pageNumber} of ${b.totalPages} is empty`);
  return problems.length ? violation(problems.join("; ")) : passed(`pages ${a.pageNumber} and ${b.pageNumber} share no item`);
}

/**
 * How to reach a second page of a list of `total` items: with the default page size when there are
 * more items than one default page holds, else with a page size that splits them in two; undefined
 * when fewer than two items exist.
 */
export function secondPagePlan(total: number, defaultPageSize: number): { pageSize?: number } | undefined {
  if (total < 2) return undefined;
  return total > defaultPageSize ? {} : { pageSize: Math.ceil(total / 2) };
}
