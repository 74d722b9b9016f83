// Differential: for the same seed, today and request, the MSW handlers (through msw/node, as a unit
// test uses them) answer what the real server (startMock on an ephemeral port) answers: the same
// status, the same body bytes, and the same values of the headers the spec declares (and the
// content type). Over one valid request per read-API operation and a few hundred requests
// generated from the spec with a fixed seed: valid and invalid parameters, missing and wrong keys,
// keys without the permission, the other organisation's ids, pages beyond the end.
import fc from "fast-check";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationIndex } from "../../generated/client.js";
import { sampleIds, type OrganizationSampleIds } from "../../mock/data/dataset.js";
import { sharedStartDataset } from "../../mock/data/start-datasets.js";
import { DEMO_KEYS, startMock, type RunningMock } from "../../mock/index.js";
import { createHandlers } from "../../mock/msw/index.js";
import { deref, loadOpenApi } from "../../scripts/lib/spec-document.js";

const SEED = 4242;
const TODAY = "2026-03-02";
const GENERATED = 400;
/** Where the handlers answer; the real server is on 127.0.0.1 (requests there pass through MSW untouched). */
const MSW_BASE = "http://hr-api.msw.test";

const openapi = loadOpenApi();
/** The response headers the spec declares anywhere, in lower case, and the content type. */
const COMPARED_HEADERS = ["content-type", ...declaredResponseHeaders(openapi)];

// The ids of the dataset both sides start from (the start dataset both make with these options, made once in a worker).
const ids: OrganizationSampleIds[] = sampleIds(sharedStartDataset({ seed: SEED, today: TODAY }));

interface ApiCall {
  /** Path and query, as sent. */
  url: string;
  authorization?: string;
  prefer?: string;
}

let server: RunningMock;
const generatedStatuses = new Set<number>();
const msw = setupServer(...createHandlers({ baseUrl: MSW_BASE, seed: SEED, today: TODAY, rateLimit: "off" }));

beforeAll(async () => {
  // The throttle on failed authentication only holds a 401 back (about a second after a few from one
  // address); the answers compared are the same without it, and the run is not held.
  server = await startMock({ port: 0, seed: SEED, today: TODAY, rateLimit: "off", authThrottle: "off" });
  msw.listen({ onUnhandledRequest: "bypass" });
});
afterAll(async () => {
  msw.close();
  await server?.close();
});

describe("MSW handlers and the server answer alike", () => {
  it.each(validCallPerOperation().map((call) => [describeCall(call), call] as const))("every operation: %s", async (name, call) => {
    const [viaMsw, viaServer] = await Promise.all([answer(MSW_BASE, call), answer(server.url, call)]);
    expect(viaServer.status, `${name}: the server should answer 200 to this valid call`).toBe(200);
    expectSame(name, viaMsw, viaServer);
  });

  it.each(generatedCalls().map((call, i) => [`#${i + 1} ${describeCall(call)}`, call] as const))("generated %s", async (name, call) => {
    const [viaMsw, viaServer] = await Promise.all([answer(MSW_BASE, call), answer(server.url, call)]);
    generatedStatuses.add(viaServer.status);
    expectSame(name, viaMsw, viaServer);
  });

  it("the generated requests drew every kind of answer: data, invalid parameter, no key, no permission, not found", () => {
    // A differential over only one kind of answer would prove little: the mix is part of the test.
    expect([...generatedStatuses].sort(), "statuses the server gave to the generated requests").toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));
  });
});

interface Answer {
  status: number;
  body: Buffer;
  headers: Record<string, string | null>;
}

async function answer(base: string, call: ApiCall): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (call.authorization !== undefined) headers.authorization = call.authorization;
  if (call.prefer !== undefined) headers.prefer = call.prefer;
  const response = await fetch(`${base}${call.url}`, { headers });
  return {
    status: response.status,
    body: Buffer.from(await response.arrayBuffer()),
    headers: Object.fromEntries(COMPARED_HEADERS.map((name) => [name, response.headers.get(name)])),
  };
}

function expectSame(name: string, viaMsw: Answer, viaServer: Answer): void {
  expect(viaMsw.status, `${name}: status (MSW vs server); server's body ${viaServer.body.toString().slice(0, 300)}`).toBe(viaServer.status);
  expect(viaMsw.body.toString("utf8"), `${name}: body (MSW vs server)`).toBe(viaServer.body.toString("utf8"));
  expect(viaMsw.body.equals(viaServer.body), `${name}: body bytes (MSW vs server)`).toBe(true);
  expect(viaMsw.headers, `${name}: headers the spec declares (MSW vs server)`).toEqual(viaServer.headers);
}

function describeCall(call: ApiCall): string {
  const key = call.authorization === undefined ? "no Authorization" : JSON.stringify(call.authorization);
  return `GET ${call.url} [${key}${call.prefer ? `, Prefer ${call.prefer}` : ""}]`;
}

/** Each read-API operation once, with the full key and ids of the key's organisation. */
function validCallPerOperation(): ApiCall[] {
  const [org1] = ids;
  const query: Record<string, string> = { EmployeeId: org1.balance.employeeId, LeaveTypeId: org1.balance.leaveTypeId };
  return operationIndex.map((op) => {
    const path = op.path.replace("{id}", op.path.includes("leaverequest") ? org1.leaveRequestId : org1.departmentId);
    const search = op.queryParams.filter((name) => op.operationId === "getLeaveBalance" && name in query).map((name) => `${name}=${query[name]}`);
    return { url: `${path}${search.length ? `?${search.join("&")}` : ""}`, authorization: "Bearer demo_org1_full" };
  });
}

/** Requests generated from the spec's operations and parameters, the same ones on every run. */
function generatedCalls(): ApiCall[] {
  const keys = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...DEMO_KEYS.map((k) => `Bearer ${k.key}`)) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, "", "Bearer", "Bearer not_a_key", "Basic ZGVtbzpkZW1v", "bearer demo_org1_full") },
  );
  const call = fc.constantFrom(...operationIndex).chain((op) => {
    const params = op.queryParams.map((name: string) => fc.option(fc.constantFrom(...valuesOf(op.path, name)), { nil: undefined, freq: 2 }).map((value): [string, string | undefined] => [name, value]));
    const pathId = fc.constantFrom(...anyIds(), "not-a-uuid", "%E0%A4%A", "00000000-0000-0000-0000-000000000000");
    return fc.record({ params: fc.tuple(...params), id: pathId, authorization: keys, prefer: fc.option(fc.constantFrom("code=404", "code=400", "code=999"), { nil: undefined, freq: 12 }) }).map(({ params, id, authorization, prefer }) => {
      const search = params.filter((entry): entry is [string, string] => entry[1] !== undefined).map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
      return { url: `${op.path.replace("{id}", encodeURIComponent(id).replace(/%25/g, "%"))}${search.length ? `?${search.join("&")}` : ""}`, authorization, prefer };
    });
  });
  return fc.sample(call, { seed: SEED, numRuns: GENERATED });
}

/** Ids of both organisations' records, as a caller would hold them. */
function anyIds(): string[] {
  return ids.flatMap((org) => [org.leaveRequestId, org.departmentId, org.employeeId, org.companyId, org.balance.employeeId, org.balance.leaveTypeId, org.inactiveDepartmentId]);
}

/** Valid and invalid texts for one query parameter, from its schema in the spec. */
function valuesOf(path: string, name: string): string[] {
  const operation = openapi.paths[path].get;
  const parameter = (operation.parameters as unknown[]).map((p) => deref(openapi, p)).find((p) => p.name === name && p.in === "query");
  const schema = deref(openapi, parameter.schema);
  return [...new Set([...(parameter.example === undefined ? [] : [String(parameter.example)]), ...schemaValues(schema)])];
}

function schemaValues(schema: any): string[] {
  const s = deref(openapi, schema);
  if (s.anyOf || s.oneOf) return [...(s.anyOf ?? s.oneOf).flatMap(schemaValues), "Nonsense"];
  if (s.enum) return [...s.enum.map(String), "Nonsense", "99"];
  if (s.type === "array") return [...schemaValues(s.items).slice(0, 3), ...anyIds().slice(0, 2)];
  if (s.type === "integer") {
    const min = s.minimum ?? 0;
    const max = s.maximum ?? 999;
    return [min, max, min - 1, max + 1, s.default ?? min, "abc", "1.5", "9999"].map(String);
  }
  if (s.type === "boolean") return ["true", "false", "yes"];
  if (s.format === "uuid" || s.pattern) return [...anyIds(), "not-a-uuid"];
  if (s.format === "date") return [TODAY, "2025-01-01", "2026-12-31", "2026-02-30", "tomorrow"];
  if (s.type === "string") return ["a", "fin", "okafor", "x".repeat((s.maxLength ?? 50) + 1)];
  return ["x"];
}

/** Every response header name the spec declares (components and operations), lower-cased. */
function declaredResponseHeaders(document: any): string[] {
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const headers = (node as { headers?: unknown }).headers;
    if (headers && typeof headers === "object" && !Array.isArray(headers)) for (const name of Object.keys(headers)) names.add(name.toLowerCase());
    for (const child of Object.values(node)) visit(child);
  };
  visit(document.paths);
  visit(document.components?.responses);
  return [...names].sort();
}
