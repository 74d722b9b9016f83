// Prefer (code=…, example=…, dynamic=true) behaves as in Prism: the mock's answer is compared with
// the answer of Prism's own library for the same operation and preference. The mock's checks come
// first: no key is still a 401, a bad parameter still a 400.
import { createInstance, getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createLogger } from "@stoplight/prism-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { parsePrefer } from "../../mock/pipeline/prefer.js";
import { BUNDLED_OPENAPI as DEFAULT_SPEC_PATH } from "../../src/contract/bundled.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { bearer, fetchAnswer, isFailureEnvelope, validPaths } from "./support.js";
import { loadOpenApi, operationsOf } from "../../scripts/lib/spec-document.js";
import { examplesAt, type NamedExample } from "../support/spec-examples.js";
import type { OperationId } from "../../generated/client.js";

const openapi = loadOpenApi();
const spec = createOpenApiValidator(openapi);
let mock: RunningMock;
let prismAnswer: (path: string, prefer: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  const operations = await getHttpOperationsFromSpec(DEFAULT_SPEC_PATH);
  const config = { isProxy: false, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined, mock: { dynamic: false } } as const;
  const prism = createInstance(config, { logger: createLogger("test", { level: "silent" }) });
  prismAnswer = async (path, prefer) => {
    const result: any = await prism.request({ method: "get", url: { path }, headers: {} }, operations, { ...config, mock: { ...config.mock, ...prefer } })();
    if (result._tag === "Left") return { status: result.left.status, body: null };
    return { status: result.right.output.statusCode, body: result.right.output.body };
  };
});
afterAll(() => mock?.close());

describe("Prefer picks the response as Prism does", () => {
  const cases: [string, { path: string; operationId: string; prefer: string; prism: Record<string, unknown> }][] = [
    ["code=404 gives the spec's 404 example", { path: "/v1/leavetype/list", operationId: "listLeaveTypes", prefer: "code=404", prism: { code: 404 } }],
    ["code=400 gives the spec's 400 example", { path: "/v1/department/list", operationId: "listDepartments", prefer: "code=400", prism: { code: 400 } }],
    ["code=200 gives the spec's example, not the dataset", { path: "/v1/leaverequest/list", operationId: "listLeaveRequests", prefer: "code=200", prism: { code: 200 } }],
    ["code=429 gives the 429 example", { path: "/v1/employee/list", operationId: "listEmployees", prefer: "code=429", prism: { code: 429 } }],
    ["code=503 falls under 5XX", { path: "/v1/leavetype/list", operationId: "listLeaveTypes", prefer: "code=503", prism: { code: 503 } }],
    ["code=404 with example=notFound names the example", { path: "/v1/leavetype/list", operationId: "listLeaveTypes", prefer: "code=404, example=notFound", prism: { code: 404, exampleKey: "notFound" } }],
    ["example=success alone is the 200 example, as Prism's lowest 2xx", { path: "/v1/department/list", operationId: "listDepartments", prefer: "example=success", prism: { exampleKey: "success" } }],
  ];
  test.each(cases)("%s", async (_name, { path, operationId, prefer, prism }) => {
    const ours = await fetchAnswer(mock, path, { headers: { ...bearer(DEMO_KEY.org1Full), prefer } });
    const theirs = await prismAnswer(path, prism);
    expect(ours.status).toBe(theirs.status);
    expect(ours.body).toEqual(theirs.body);
    expect(spec.check(operationId, ours.status, ours.body)).toEqual([]);
  });

  test("a status the operation does not define is a 404 envelope, as Prism answers 404", async () => {
    const ours = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer: "code=418" } });
    expect((await prismAnswer("/v1/leavetype/list", { code: 418 })).status).toBe(404);
    expect(ours.status).toBe(404);
    expect(isFailureEnvelope(ours.body, 404), ours.text).toBe(true);
    expect(ours.body.message).toContain("418");
  });

  test("an example that does not exist is a 404 envelope naming the examples there are, as Prism answers 404", async () => {
    const ours = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer: "example=nope" } });
    expect((await prismAnswer("/v1/leavetype/list", { exampleKey: "nope" })).status).toBe(404);
    expect(ours.status).toBe(404);
    expect(isFailureEnvelope(ours.body, 404), ours.text).toBe(true);
    expect(ours.body.message).toContain('"nope"');
    for (const name of examplesOf("listLeaveTypes").map((e) => e.name)) expect(ours.body.message, `the message lists ${name}`).toContain(name);
  });

  test("an example asked for with another response's code is a 404 naming the example's status", async () => {
    const ours = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer: "code=200, example=badRequest" } });
    expect(ours.status).toBe(404);
    expect(isFailureEnvelope(ours.body, 404), ours.text).toBe(true);
    expect(ours.body.message).toContain("badRequest");
    expect(ours.body.message).toContain("400");
  });

  test("dynamic=true generates a body from the schema: valid, and not the dataset's", async () => {
    for (const [path, operationId] of [
      ["/v1/leaverequest/list", "listLeaveRequests"],
      [`/v1/department/${mock.ids[0].departmentId}`, "getDepartment"],
      ["/v1/leavetype/list", "listLeaveTypes"],
    ] as const) {
      const ours = await fetchAnswer(mock, path, { headers: { ...bearer(DEMO_KEY.org1Full), prefer: "dynamic=true" } });
      expect(ours.status).toBe(200);
      expect(spec.check(operationId, ours.status, ours.body), ours.text.slice(0, 300)).toEqual([]);
      const real = await fetchAnswer(mock, path, { headers: bearer(DEMO_KEY.org1Full) });
      expect(ours.text).not.toBe(real.text);
    }
  });

  // What the spec's x-faker hints fill in comes from Prism's faker, which the seed does not reach (in
  // Prism too); the rest is drawn by json-schema-faker's seeded random: ids, dates, statuses, list lengths.
  test("dynamic=true with a seed repeats what the generator draws, as in Prism, and another seed draws otherwise", async () => {
    const ask = async (seed: string) => {
      const answer = await fetchAnswer(mock, validPaths(mock.ids[0]).listLeaveRequests, { headers: { ...bearer(DEMO_KEY.org1Full), prefer: `dynamic=true, seed=${seed}` } });
      expect(answer.status, answer.text.slice(0, 200)).toBe(200);
      return JSON.stringify([answer.body.data.pageSize, answer.body.data.data.map((r: any) => [r.id, r.employeeId, r.startDate, r.endDate, r.leaveStatusId, r.leaveStatus, r.requestedOn])]);
    };
    const [first, second, other] = [await ask("42"), await ask("42"), await ask("43")];
    expect(second, "the same seed twice").toBe(first);
    expect(other, "another seed").not.toBe(first);
  });
});

/** The named examples of an operation's responses in the bundled spec, with the status each answers. */
function examplesOf(operationId: string): NamedExample[] {
  const [, path] = operationsOf(openapi).find(([, , op]) => op.operationId === operationId)!;
  return examplesAt(openapi, path)!;
}

describe("Prefer: example=<name> answers every named example of the spec, alone or with its code", () => {
  const cases = operationsOf(openapi).flatMap(([, , operation]) =>
    examplesOf(operation.operationId).map(({ name, code, value }) => {
      // A range (5XX) answers with the status its example's envelope names.
      const status = /^\d{3}$/.test(code) ? Number(code) : Number(value.code);
      return [`${operation.operationId} example=${name}`, { operationId: operation.operationId as OperationId, name, status, value }] as const;
    }),
  );
  test("every operation has examples to ask for", () => {
    expect(cases.length, "named examples in generated/openapi.json").toBeGreaterThanOrEqual(7 * 8);
  });
  test.each(cases)("%s", async (_name, { operationId, name, status, value }) => {
    const path = validPaths(mock.ids[0])[operationId];
    for (const prefer of [`example=${name}`, `code=${status}, example=${name}`]) {
      const ours = await fetchAnswer(mock, path, { headers: { ...bearer(DEMO_KEY.org1Full), prefer } });
      expect(ours.status, `Prefer: ${prefer} on ${operationId}: ${ours.text.slice(0, 200)}`).toBe(status);
      expect(ours.body, `Prefer: ${prefer} on ${operationId}: the example's value`).toEqual(value);
    }
  });
});

describe("preferences Prism does not act on leave the answer to the dataset", () => {
  test.each([["an empty Prefer header", ""], ["return=minimal", "return=minimal"], ["respond-async", "respond-async, wait=5"]])("%s", async (_name, prefer) => {
    const plain = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
    const preferred = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer } });
    expect(preferred.status).toBe(200);
    expect(preferred.text).toBe(plain.text);
  });
});

describe("the mock's own checks come before Prefer", () => {
  const cases: [string, { path: string; headers: Record<string, string>; want: number }][] = [
    ["no key is 401", { path: "/v1/leavetype/list", headers: { prefer: "code=200" }, want: 401 }],
    ["no permission is 403", { path: "/v1/department/list", headers: { ...bearer(DEMO_KEY.org1LeaveView), prefer: "code=200" }, want: 403 }],
    ["a bad parameter is 400", { path: "/v1/leavetype/list?PageSize=0", headers: { ...bearer(DEMO_KEY.org1Full), prefer: "code=200" }, want: 400 }],
    ["an unknown path is 404", { path: "/v1/leavetypes", headers: { ...bearer(DEMO_KEY.org1Full), prefer: "code=200" }, want: 404 }],
    ["a Prefer code that is not a status is 400", { path: "/v1/leavetype/list", headers: { ...bearer(DEMO_KEY.org1Full), prefer: "code=abc" }, want: 400 }],
    ["dynamic=maybe is 400", { path: "/v1/leavetype/list", headers: { ...bearer(DEMO_KEY.org1Full), prefer: "dynamic=maybe" }, want: 400 }],
  ];
  test.each(cases)("%s", async (_name, { path, headers, want }) => {
    const answer = await fetchAnswer(mock, path, { headers });
    expect(answer.status).toBe(want);
    expect(isFailureEnvelope(answer.body, want), answer.text).toBe(true);
  });
});

describe("parsePrefer reads the header as Prism's server does", () => {
  const cases: [string, { given: string; want: ReturnType<typeof parsePrefer> }][] = [
    ["a code", { given: "code=404", want: { ok: true, config: { code: 404 } } }],
    ["several preferences, any case, spaces", { given: "Code=200 ,  dynamic=true, seed=7", want: { ok: true, config: { code: 200, dynamic: true, seed: "7" } } }],
    ["a quoted example with a comma", { given: 'example="a,b"', want: { ok: true, config: { exampleKey: "a,b" } } }],
    ["the first of a name wins", { given: "code=201, code=404", want: { ok: true, config: { code: 201 } } }],
    ["other preferences are ignored", { given: "return=minimal; x=1, respond-async", want: { ok: true, config: {} } }],
    ["a code that is not three digits", { given: "code=4040", want: { ok: false, message: 'code must be a three-digit HTTP status, got "4040"' } }],
    ["a code without a value", { given: "code", want: { ok: false, message: "code must be a three-digit HTTP status, got nothing" } }],
    ["dynamic that is not a boolean", { given: "dynamic=yes", want: { ok: false, message: 'dynamic must be true or false, got "yes"' } }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(parsePrefer(given)).toEqual(want);
  });
});
