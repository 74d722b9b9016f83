import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { collectAll, createHrClient, MAX_PAGE_SIZE, paginate } from "../../src/client/index.js";
import { leaveRequest, leaveRequestPage } from "./support/fixtures.js";
import { answerEvery, API_KEY, BASE_URL, success } from "./support/scripted-fetch.js";

/** A fake list endpoint over `total` leave requests that pages as the spec says. */
function pagedService(total: number, options: { lieTotalPages?: number } = {}) {
  const all = Array.from({ length: total }, (_, i) => leaveRequest(i + 1));
  const scripted = answerEvery((request) => {
    const url = new URL(request.url);
    const pageNumber = Number(url.searchParams.get("PageNumber") ?? 1);
    const pageSize = Number(url.searchParams.get("PageSize") ?? 25);
    const items = all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
    const page = leaveRequestPage(items, pageNumber, pageSize, total);
    return success(options.lieTotalPages === undefined ? page : { ...page, totalPages: options.lieTotalPages });
  });
  const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false });
  const pagesAsked = () => scripted.requests.map((r) => Number(r.url.searchParams.get("PageNumber")));
  return { all, client, requests: scripted.requests, pagesAsked };
}

describe("paging through a list", () => {
  test.each([
    ["250 items in pages of 100", { total: 250, pageSize: undefined, wantPages: [1, 2, 3] }],
    ["exactly 200 items", { total: 200, pageSize: undefined, wantPages: [1, 2] }],
    ["7 items in pages of 3", { total: 7, pageSize: 3, wantPages: [1, 2, 3] }],
    ["no items", { total: 0, pageSize: undefined, wantPages: [1] }],
  ])("%s: every item once, stopping at totalPages", async (_name, { total, pageSize, wantPages }) => {
    const { all, client, pagesAsked } = pagedService(total);
    const items = await collectAll(client.iterate("listLeaveRequests", pageSize ? { PageSize: pageSize } : {}));
    expect(items.map((i) => i.id), "ids yielded, in order").toEqual(all.map((i) => i.id));
    expect(pagesAsked(), "pages requested").toEqual(wantPages);
  });

  test("an empty page ends the iteration even when totalPages says more", async () => {
    const { all, client, pagesAsked } = pagedService(150, { lieTotalPages: 9 });
    const items = await collectAll(client.iterate("listLeaveRequests"));
    expect(items.length, "items yielded").toBe(all.length);
    expect(pagesAsked(), "pages requested: the third is empty").toEqual([1, 2, 3]);
  });

  test("PageSize defaults to the spec's maximum", async () => {
    const { client, requests } = pagedService(1);
    await collectAll(client.iterate("listLeaveRequests"));
    expect(requests[0].url.searchParams.get("PageSize"), "PageSize sent").toBe(String(MAX_PAGE_SIZE));
  });

  test("MAX_PAGE_SIZE is the maximum of the spec's PageSize parameter", () => {
    const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
    expect(MAX_PAGE_SIZE, "components.parameters.PageSize.schema.maximum").toBe(spec.components.parameters.PageSize.schema.maximum);
  });

  test("the other query parameters go with every page", async () => {
    const { client, requests } = pagedService(5);
    await collectAll(client.iterate("listLeaveRequests", { LeaveStatus: "Approved", PageSize: 2 }));
    expect(requests.map((r) => r.url.searchParams.get("LeaveStatus")), "LeaveStatus of each page's request").toEqual(["Approved", "Approved", "Approved"]);
  });

  test("PageNumber in the query is the page to start from", async () => {
    const { all, client, pagesAsked } = pagedService(10);
    const items = await collectAll(client.iterate("listLeaveRequests", { PageNumber: 2, PageSize: 4 }));
    expect({ pages: pagesAsked(), first: items[0].id }, "pages and first item").toEqual({ pages: [2, 3], first: all[4].id });
  });

  test("paginate takes an unwrapped method and pages lazily", async () => {
    const { client, pagesAsked } = pagedService(300);
    const firstThree = [];
    for await (const item of paginate(client.listLeaveRequests, { OrderBy: 0 })) {
      firstThree.push(item);
      if (firstThree.length === 3) break;
    }
    expect({ items: firstThree.length, pages: pagesAsked() }, "breaking early fetches one page").toEqual({ items: 3, pages: [1] });
  });

  test("iterate refuses an operation that is not the client's", () => {
    const { client } = pagedService(1);
    // @ts-expect-error getLeaveRequest is not a list operation
    expect(() => client.iterate("getLeaveRequest"), "iterate on a non-list operation").toThrow(/getLeaveRequest is not a list operation; the list operations are listLeaveRequests, listLeaveTypes, listDepartments, listEmployees/);
  });
});
