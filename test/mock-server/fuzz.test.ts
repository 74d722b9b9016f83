// Fuzz: a few thousand seeded random and malformed requests (paths, query strings, headers,
// methods). Never a 5xx (no failures are injected), never a crash, every answer a JSON envelope
// whose status the spec lists for the operation it reached, or a 404 when it reached none.
import { Agent, request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { operationIndex } from "../../generated/client.js";
import { DEMO_KEYS, startMock, type RunningMock } from "../../mock/index.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";

const spec = createOpenApiValidator();
const SEED = 20261015;
const RUNS = 3000;

let mock: RunningMock;
let agent: Agent;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off", today: "2026-06-15", authThrottle: "off" });
  agent = new Agent({ keepAlive: true, maxSockets: 8 });
});
afterAll(async () => {
  agent?.destroy();
  await mock?.close();
});

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
}

// Characters a request target may carry without the client refusing to send it.
const TARGET_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%{}|^`[]\"<>\\";
const targetText = (maxLength: number) => fc.string({ unit: fc.constantFrom(...TARGET_CHARS), maxLength });
const headerText = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789_-=,;:. /+ABCXYZ\t"), maxLength: 40 });

function arbitraryRequest(): fc.Arbitrary<FuzzRequest> {
  const ids = () => mock.ids;
  const anyId = fc.oneof(
    fc.constantFrom(...[0, 1].flatMap((i) => [ids()[i].leaveRequestId, ids()[i].departmentId, ids()[i].employeeId, ids()[i].companyId, ids()[i].balance.leaveTypeId])),
    fc.uuid(),
    targetText(40),
    fc.constantFrom("", "%", "%zz", "%E0%A4%A", "..", "list", "{id}", "00000000-0000-0000-0000-000000000000", "A".repeat(2000)),
  );
  const path = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...operationIndex.filter((op) => op.pathParams.length === 0).map((op) => op.path)) },
    { weight: 4, arbitrary: anyId.map((id) => `/v1/leaverequest/details/${id}`) },
    { weight: 4, arbitrary: anyId.map((id) => `/v1/department/${id}`) },
    { weight: 2, arbitrary: fc.array(fc.oneof(targetText(12), fc.constantFrom("v1", "department", "leaverequest", "list", "details", "")), { maxLength: 6 }).map((parts) => `/${parts.join("/")}`) },
    { weight: 1, arbitrary: fc.constantFrom("/", "/docs/../v1", "//v1/leaverequest/list", "/v1/leaverequest/list/", "/V1/LEAVEREQUEST/LIST", "/_mock/x", "/v1/leave%72equest/list") },
  );
  const paramName = fc.oneof(
    fc.constantFrom(...new Set(operationIndex.flatMap((op) => [...op.queryParams]))).chain((name) =>
      fc.constantFrom(name, name.toLowerCase(), name.toUpperCase()),
    ),
    targetText(10),
  );
  const paramValue = fc.oneof(
    fc.integer({ min: -5, max: 300 }).map(String),
    fc.constantFrom("1", "25", "100", "0", "-1", "1e1", "0x10", "1.5", "%205", "+5", "NaN", "Infinity", "true", "false", "TRUE", "approved", "Approved", "2", "7", "Active", "Retired"),
    fc.constantFrom("2026-01-01", "2026-12-31", "2026-13-01", "2026-02-30", "26-1-1"),
    anyId,
    fc.string({ maxLength: 30 }).map(encodeURIComponent),
    targetText(30),
    fc.constantFrom("", "%", "%zz", "%00", "%FF%FE", "a".repeat(5000)),
  );
  const query = fc.array(fc.tuple(paramName, paramValue), { maxLength: 8 }).map((pairs) => pairs.map(([n, v]) => `${n}=${v}`).join("&"));
  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...DEMO_KEYS.map((k) => `Bearer ${k.key}`)) },
    { weight: 2, arbitrary: headerText.map((text) => `Bearer ${text}`) },
    { weight: 1, arbitrary: headerText },
    { weight: 1, arbitrary: fc.constantFrom("", "Bearer", "Bearer ", "Basic Zm9vOmJhcg==", "bearer demo_org1_full", "Bearer demo_org1_full x") },
  );
  const prefer = fc.constantFrom("code=404", "code=200", "code=abc", "code=999", "example=x", "dynamic=false", "code=400, example=default", "");
  const headers = fc.record(
    { authorization, prefer, origin: fc.constantFrom("http://localhost:3000", "null", "x"), accept: fc.constantFrom("application/json", "*/*", "text/html") },
    { requiredKeys: [] },
  );
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant("GET") },
    { weight: 2, arbitrary: fc.constantFrom("POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "FOO", "get") },
  );
  return fc.record({ method, path, query, headers }).map((r) => ({ ...r, headers: r.headers as Record<string, string> }));
}

function send(req: FuzzRequest): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const target = req.query ? `${req.path}?${req.query}` : req.path;
    const outgoing = httpRequest(
      { host: "127.0.0.1", port: mock.port, method: req.method, path: target, headers: req.headers, agent },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The operation a path reaches, by the spec's path templates (a templated fragment takes any text). */
function operationFor(method: string, path: string): { operationId: string | undefined; pathExists: boolean } {
  const fragments = path.split("/").slice(1).map((f) => {
    try {
      return decodeURIComponent(f);
    } catch {
      return f;
    }
  });
  const matches = operationIndex.filter((op) => {
    const template = op.path.split("/").slice(1);
    return template.length === fragments.length && template.every((t, i) => t.startsWith("{") || t === fragments[i]);
  });
  // A concrete path wins over a templated one (/v1/department/list is not /v1/department/{id}).
  const best = matches.find((op) => op.pathParams.length === 0) ?? matches[0];
  return { operationId: best && best.method.toUpperCase() === method ? best.operationId : undefined, pathExists: best !== undefined };
}

test(`${RUNS} random and malformed requests: no 5xx, no crash, every answer inside the spec`, async () => {
  const outside: string[] = [];
  await fc.assert(
    fc.asyncProperty(arbitraryRequest(), async (req) => {
      const answer = await send(req);
      const where = `${req.method} ${req.path}?${req.query.slice(0, 120)} ${JSON.stringify(req.headers).slice(0, 160)} → ${answer.status} ${answer.body.slice(0, 200)}`;
      expect(answer.status, where).toBeLessThan(500);
      if (req.method === "HEAD") {
        // Answered as GET (RFC 9110), without the body.
        expect(answer.body, `HEAD has no body: ${where}`).toBe("");
        if (operationFor("GET", req.path).operationId === undefined) expect(answer.status, `reached no GET operation, so 404: ${where}`).toBe(404);
        return;
      }
      let body: any;
      try {
        body = JSON.parse(answer.body);
      } catch {
        throw new Error(`not JSON: ${where}`);
      }
      expect(String(answer.headers["content-type"]), where).toBe("application/json; charset=utf-8");
      expect(typeof body.isSuccessful === "boolean" && typeof body.code === "string" && "data" in body, `not an envelope: ${where}`).toBe(true);
      if (answer.status !== 200) expect(body, where).toMatchObject({ isSuccessful: false, code: String(answer.status), data: null });
      // Node's HTTP parser refuses some requests (an unknown method) before any route: still an envelope.
      if (answer.status === 400 && body.message.startsWith("Bad request: the HTTP request could not be read")) return;
      const { operationId, pathExists } = operationFor(req.method.toUpperCase(), req.path); // Node's client sends methods upper-cased
      if (operationId === undefined) {
        // A path of the spec with another method is the spec's 405 (checked against the GET operation's responses).
        if (pathExists && answer.status === 405) {
          const { operationId: get } = operationFor("GET", req.path);
          const problems = spec.check(get!, answer.status, body);
          if (problems.length > 0) outside.push(`${where}: ${problems.join("; ")}`);
          return;
        }
        expect(answer.status, `reached no operation, so 404: ${where}`).toBe(404);
        return;
      }
      const problems = spec.check(operationId, answer.status, body);
      if (problems.length > 0) outside.push(`${where}: ${problems.join("; ")}`);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  expect(outside.slice(0, 5), `${outside.length} answers outside the spec`).toEqual([]);

  // Still standing after all that.
  const after = await send({ method: "GET", path: "/v1/leavetype/list", query: "", headers: { authorization: `Bearer ${DEMO_KEYS[2].key}` } });
  expect(after.status).toBe(200);
}, 120_000);
