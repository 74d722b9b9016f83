import { describe, expect, test } from "vitest";
import { createHrClient } from "../../src/client/index.js";
import { answerEvery, API_KEY, BASE_URL, success } from "./support/scripted-fetch.js";

const COMPANY_A = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const COMPANY_B = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const emptyPage = { data: [], pageNumber: 1, pageSize: 25, totalRecords: 0, totalPages: 0 };

function recordingClient() {
  const scripted = answerEvery(() => success(emptyPage));
  return { client: createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false }), requests: scripted.requests };
}

describe("query strings", () => {
  test.each([
    ["two companies", { given: [COMPANY_A, COMPANY_B], want: `Companies=${COMPANY_A}&Companies=${COMPANY_B}` }],
    ["one company", { given: [COMPANY_A], want: `Companies=${COMPANY_A}` }],
  ])("Companies with %s is repeated once per value", async (_name, { given, want }) => {
    const { client, requests } = recordingClient();
    await client.listDepartments({ Companies: given });
    expect(requests[0].url.search, "the query string").toBe(`?${want}`);
    expect(requests[0].url.searchParams.getAll("Companies"), "Companies values as a server reads them").toEqual(given);
  });

  test("repeated Companies sit beside the other parameters", async () => {
    const { client, requests } = recordingClient();
    await client.listDepartments({ SearchTerm: "fin", Companies: [COMPANY_A, COMPANY_B], OrderBy: 0 });
    expect(requests[0].url.search, "the query string").toBe(`?SearchTerm=fin&Companies=${COMPANY_A}&Companies=${COMPANY_B}&OrderBy=0`);
  });

  test("paging through departments repeats Companies on every page", async () => {
    const { client, requests } = recordingClient();
    for await (const _ of client.iterate("listDepartments", { Companies: [COMPANY_A, COMPANY_B] })) void _;
    expect(requests[0].url.searchParams.getAll("Companies"), "Companies of the page request").toEqual([COMPANY_A, COMPANY_B]);
  });

  test("values are percent-encoded", async () => {
    const { client, requests } = recordingClient();
    await client.listLeaveRequests({ SearchTerm: "okafor & co" });
    expect(requests[0].url.searchParams.get("SearchTerm"), "SearchTerm as a server decodes it").toBe("okafor & co");
    expect(requests[0].url.search, "the raw query string").toBe("?SearchTerm=okafor%20%26%20co");
  });

  test("parameters left out are not sent", async () => {
    const { client, requests } = recordingClient();
    await client.listLeaveRequests({ StartDate: "2026-12-01", EndDate: "2026-12-31", CompanyId: undefined });
    expect(requests[0].url.search, "the query string").toBe("?StartDate=2026-12-01&EndDate=2026-12-31");
  });

  test("every method is a GET to the spec's path", async () => {
    const { client, requests } = recordingClient();
    await client.listLeaveTypes({ IsActive: true, EligibilityCriteria: 2 });
    expect(`${requests[0].method} ${requests[0].url.pathname}${requests[0].url.search}`, "request line").toBe("GET /v1/leavetype/list?IsActive=true&EligibilityCriteria=2");
  });
});
