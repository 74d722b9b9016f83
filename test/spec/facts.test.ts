// Each limit is stated once as a value the generator reads (x-rate-limit; the PageSize parameter's
// maximum; the control document's paths), and every other place the documents state it (prose,
// examples, bounds) agrees with that value. The generator refuses a document that states a limit
// in a way it cannot read.
import { describe, expect, it } from "vitest";
import { controlPrefix } from "../../generated/control-facts.js";
import { routes } from "../../generated/routes.js";
import { parameters, rateLimit } from "../../generated/facts.js";
import { renderControlFacts, renderFacts } from "../../scripts/generate/facts.js";
import { loadJson, operationsOf } from "../../scripts/lib/spec-document.js";
import { limit } from "./provider-fixture.js";

const openapi = loadJson("generated/openapi.json");
const control = loadJson("generated/control-openapi.json");
const tooMany = openapi.components.responses.TooManyRequests;
const stated = tooMany["x-rate-limit"];

describe("the rate limit: x-rate-limit of the TooManyRequests response", () => {
  it("states the provider's rate (service-api.md section 8: 300 requests a minute per key)", () => {
    expect(stated, "x-rate-limit").toEqual({ requests: limit("rateLimitPerMinute"), windowSeconds: 60 });
  });

  it("is what generated/facts.ts exports, with the status every operation answers it under", () => {
    const statuses = operationsOf(openapi).map(([method, path, op]) => [`${method} ${path}`, Object.keys(op.responses).filter((s) => op.responses[s].$ref === "#/components/responses/TooManyRequests")]);
    expect(statuses, "each operation answers TooManyRequests under the rate-limit status only").toEqual(statuses.map(([op]) => [op, [String(rateLimit.status)]]));
    expect({ requests: rateLimit.requests, windowSeconds: rateLimit.windowSeconds }, "generated/facts.ts rateLimit").toEqual(stated);
    expect(Object.values(rateLimit.headers), "the headers of the rate-limit answer").toEqual(Object.keys(tooMany.headers));
  });

  const { requests, windowSeconds } = stated as { requests: number; windowSeconds: number };
  const headers = openapi.components.headers;
  const PLACES: Array<[string, { given: unknown; want: string | number }]> = [
    ["RateLimit-Limit's example", { given: headers["RateLimit-Limit"].example, want: requests }],
    ["Retry-After's largest value: one window", { given: headers["Retry-After"].schema.maximum, want: windowSeconds }],
    ["RateLimit-Limit's description", { given: headers["RateLimit-Limit"].description, want: `in any rolling ${windowSeconds} seconds` }],
    ["RateLimit-Remaining's description", { given: headers["RateLimit-Remaining"].description, want: `rolling ${windowSeconds} seconds` }],
    ["Retry-After's x-assumption", { given: headers["Retry-After"]["x-assumption"], want: `rolling ${windowSeconds}-second window` }],
    ["TooManyRequests' description", { given: tooMany.description, want: `${requests} requests` }],
    ["TooManyRequests' x-assumption", { given: tooMany["x-assumption"], want: `${requests} requests in any rolling ${windowSeconds} seconds per key` }],
    ["TooManyRequests' example message", { given: tooMany.content["application/json"].examples.tooManyRequests.value.message, want: `${requests} requests in ${windowSeconds} seconds` }],
    ["the limits table of info.description", { given: (openapi.info.description as string).split("\n").find((line) => line.startsWith("| API request rate |")), want: `${requests} requests a minute per key; a \`Retry-After\` header states the wait (assumed: a rolling ${windowSeconds}-second window` }],
  ];
  it.each(PLACES)("%s agrees with x-rate-limit", (where, { given, want }) => {
    if (typeof want === "number") expect(given, where).toBe(want);
    else expect(given, `${where} must say "${want}"`).toContain(want);
  });
});

describe("the largest page size: the PageSize parameter's maximum", () => {
  const max = openapi.components.parameters.PageSize.schema.maximum;
  const pages = Object.entries<any>(openapi.components.schemas).filter(([name]) => name.endsWith("Page") && name !== "Page");
  const PLACES: Array<[string, { given: unknown; want: string | number }]> = [
    ["generated/facts.ts parameters.PageSize.maximum", { given: parameters.PageSize.maximum, want: max }],
    ["Page.pageSize's maximum", { given: openapi.components.schemas.Page.properties.pageSize.maximum, want: max }],
    ...pages.map(([name, schema]): [string, { given: unknown; want: number }] => [`${name}'s data maxItems`, { given: schema.allOf[1].properties.data.maxItems, want: max }]),
    ["PageSize's description", { given: openapi.components.parameters.PageSize.description, want: `1 to ${max};` }],
    ["PageSize's x-assumption", { given: openapi.components.parameters.PageSize["x-assumption"], want: `The largest PageSize is ${max}; a value above ${max}` }],
    ["the limits table of info.description", { given: openapi.info.description, want: `| Largest page size | ${max} ` }],
  ];
  it("holds for every list's page schema", () => {
    expect(pages.map(([name]) => name).sort(), "the page schemas").toEqual(["DepartmentPage", "EmployeePage", "LeaveRequestPage", "LeaveTypePage"]);
  });
  it.each(PLACES)("%s agrees with it", (where, { given, want }) => {
    if (typeof want === "number") expect(given, where).toBe(want);
    else expect(given, `${where} must say "${want}"`).toContain(want);
  });
});

describe("the control API's paths", () => {
  it("all start with controlPrefix, and no read API path does", () => {
    const outside = Object.keys(control.paths).filter((p) => !p.startsWith(controlPrefix));
    expect({ controlPrefix, outside }, "control paths outside the prefix").toEqual({ controlPrefix: "/_mock/", outside: [] });
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith(controlPrefix)), "read API paths under the control prefix").toEqual([]);
  });
  it("routes name every operation of both documents with its method and path", () => {
    const want = [...operationsOf(openapi), ...operationsOf(control)].map(([method, path, op]) => ({ operationId: op.operationId, method: method.toUpperCase(), path }));
    expect(routes.map(({ operationId, method, path }) => ({ operationId, method, path }))).toEqual(want);
  });
});

/** The bundled read API with one edit, for the generator. */
function planted(edit: (doc: any) => void): any {
  const doc = structuredClone(openapi);
  edit(doc);
  return doc;
}

const REFUSED: Array<[string, { given: () => string; want: RegExp }]> = [
  ["no response states x-rate-limit", { given: () => renderFacts(planted((d) => delete d.components.responses.TooManyRequests["x-rate-limit"])), want: /exactly one component response states the rate limit \(x-rate-limit\); found 0/ }],
  [
    "two responses state it",
    { given: () => renderFacts(planted((d) => (d.components.responses.ServerError["x-rate-limit"] = { requests: 1, windowSeconds: 1 }))), want: /found 2: TooManyRequests, ServerError/ },
  ],
  ["a window of 0 seconds", { given: () => renderFacts(planted((d) => (d.components.responses.TooManyRequests["x-rate-limit"].windowSeconds = 0))), want: /windowSeconds must be a whole number of at least 1, got 0/ },
  ],
  ["a field it does not know", { given: () => renderFacts(planted((d) => (d.components.responses.TooManyRequests["x-rate-limit"].burst = 10))), want: /takes requests and windowSeconds only, not burst/ }],
  [
    "an operation answering it under a second status",
    { given: () => renderFacts(planted((d) => (d.paths["/v1/leavetype/list"].get.responses["503"] = { $ref: "#/components/responses/TooManyRequests" }))), want: /under one HTTP status; found 429, 503/ },
  ],
  [
    "examples showing two codes",
    {
      given: () => renderFacts(planted((d) => (d.components.responses.TooManyRequests.content["application/json"].examples.other = { value: { isSuccessful: false, code: "RATE", message: "x", data: null } }))),
      want: /examples must show one envelope code; found "429", "RATE"/,
    },
  ],
  [
    "control paths that share no prefix below /",
    { given: () => renderControlFacts({ ...structuredClone(control), paths: { ...control.paths, "/other": { get: { operationId: "other" } } } }), want: /share no prefix below "\/"/ },
  ],
];

describe("the generator refuses a limit it cannot read", () => {
  it.each(REFUSED)("%s", (_name, { given, want }) => {
    expect(given).toThrow(want);
  });
});
