// The mock's switches and surroundings: --failure-status 200, --fail-rate, --keys, logging, CORS,
// /docs, mounted routes, start-up option checks, and a handler that throws.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createKeyRegistry } from "../../mock/worlds/api-keys.js";
import { datasetOf } from "../../mock/data/dataset.js";
import { LazyOrganization, OrganizationTable } from "../../mock/data/lazy-organizations.js";
import { DEMO_KEY, DEMO_KEYS, KeysFileError, MockOptionError, startMock, type RunningMock, type StartMockOptions } from "../../mock/index.js";
import { parseKeySpecs } from "../../mock/keys/load-keys.js";
import { KNOWN_PERMISSIONS } from "../../src/contract/keys-form.js";
import { handlers, readOperations } from "../../mock/operations/read/index.js";
import { createDispatcher } from "../../mock/pipeline/dispatch.js";
import { ResponseCache } from "../../mock/pipeline/response-cache.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { Worlds } from "../../mock/worlds/world.js";
import { memoryBackend } from "../../mock/state/memory.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { bearer, fetchAnswer, isFailureEnvelope } from "./support.js";

const spec = createOpenApiValidator();
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "hr-mock-test-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function withMock<T>(options: StartMockOptions, body: (mock: RunningMock) => Promise<T>): Promise<T> {
  const mock = await startMock({ port: 0, ...options });
  try {
    return await body(mock);
  } finally {
    await mock.close();
  }
}

describe("failureStatus 200", () => {
  const cases: [string, { path: string; headers: Record<string, string>; envelopeCode: string }][] = [
    ["401 without a key", { path: "/v1/leavetype/list", headers: {}, envelopeCode: "401" }],
    ["403 without the permission", { path: "/v1/department/list", headers: bearer(DEMO_KEY.org1LeaveView), envelopeCode: "403" }],
    ["400 for a bad parameter", { path: "/v1/leavetype/list?PageSize=0", headers: bearer(DEMO_KEY.org1Full), envelopeCode: "400" }],
    ["404 for an unknown path", { path: "/v2/nothing", headers: {}, envelopeCode: "404" }],
  ];
  test.each(cases)("%s is sent with HTTP 200 and the same envelope", async (_name, { path, headers, envelopeCode }) => {
    await withMock({ failureStatus: 200 }, async (mock) => {
      const answer = await fetchAnswer(mock, path, { headers });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ isSuccessful: false, code: envelopeCode, data: null });
    });
  });

  test("a 429 keeps Retry-After", async () => {
    await withMock({ failureStatus: 200, rateLimit: 1 }, async (mock) => {
      await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
      const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe("429");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    });
  });
});

describe("failRate", () => {
  test("failRate 1 answers every operation with a 503 envelope inside the spec's 5XX", async () => {
    await withMock({ failRate: 1 }, async (mock) => {
      const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
      expect(answer.status).toBe(503);
      expect(isFailureEnvelope(answer.body, 503), answer.text).toBe(true);
      expect(spec.check("listLeaveTypes", answer.status, answer.body, answer.headers)).toEqual([]);
    });
  });

  test("the injected failures follow the seed: the same seed fails the same requests", async () => {
    const run = () =>
      withMock({ failRate: 0.5, seed: 7, rateLimit: "off" }, async (mock) => {
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) statuses.push((await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) })).status);
        return statuses;
      });
    const first = await run();
    expect(first).toEqual(await run());
    expect(new Set(first), "both answers occur at rate 0.5").toEqual(new Set([200, 503]));
  });
});

describe("keys", () => {
  test("a keys file adds keys with their organisation and permissions", async () => {
    const file = join(tmp, "keys.json");
    await writeFile(file, JSON.stringify([{ key: "team-a-secret", organisation: 2, permissions: ["Leave: View"], label: "team A" }]));
    await withMock({ keys: file }, async (mock) => {
      const leave = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer("team-a-secret") });
      expect(leave.status).toBe(200);
      const departments = await fetchAnswer(mock, "/v1/department/list", { headers: bearer("team-a-secret") });
      expect(departments.status).toBe(403);
      const reported = mock.keys.find((k) => k.label === "team A");
      expect(reported).toMatchObject({ organisation: 2, organizationId: mock.ids[1].organizationId, demo: false });
    });
  });

  test("an organisation can be named by its id", async () => {
    await withMock({}, async (first) => {
      await withMock({ keys: [{ key: "by-id", organisation: first.ids[1].organizationId, permissions: [], label: "by id" }] }, async (mock) => {
        expect(mock.keys.find((k) => k.key === "by-id")?.organisation).toBe(2);
      });
    });
  });

  const bad: [string, { given: unknown; says: string }][] = [
    ["not an array", { given: { key: "x" }, says: "must hold a JSON array" }],
    ["an entry that is a string", { given: ["x"], says: "entry 1: must be an object" }],
    ["an empty key", { given: [{ key: "", organisation: 1, permissions: [] }], says: '"key" must be a non-empty string' }],
    ["a key with a space", { given: [{ key: "a b", organisation: 1, permissions: [] }], says: "without spaces" }],
    ["organisation 0", { given: [{ key: "k", organisation: 0, permissions: [] }], says: '"organisation" must be 1, 2' }],
    ["permissions not an array", { given: [{ key: "k", organisation: 1, permissions: "Leave: View" }], says: '"permissions" must be an array' }],
    ["a misspelt permission", { given: [{ key: "k", organisation: 1, permissions: ["Leave:View"] }], says: 'unknown permission "Leave:View"' }],
    ["an unknown field", { given: [{ key: "k", organisation: 1, permissions: [], org: 1 }], says: 'unknown field "org"' }],
    ["the same key twice", { given: [{ key: "k", organisation: 1, permissions: [] }, { key: "k", organisation: 1, permissions: [] }], says: "entry 2: the same key" }],
  ];
  test.each(bad)("a keys file with %s is refused with one line", (_name, { given, says }) => {
    let message = "";
    try {
      parseKeySpecs(given, "keys file k.json");
    } catch (error) {
      expect(error).toBeInstanceOf(KeysFileError);
      message = (error as Error).message;
    }
    expect(message).toContain(says);
    expect(message).not.toContain("\n");
  });

  test("a key that repeats a demo key, or an organisation beyond the dataset, is refused", () => {
    expect(() => createKeyRegistry([...DEMO_KEYS, { ...DEMO_KEYS[0], label: "copy" }], ["a", "b"], undefined as never)).toThrow(/defined twice/);
    expect(() => createKeyRegistry([{ key: "k", organisation: 3, permissions: [], label: "third" }], ["a", "b"], undefined as never)).toThrow(/not 1 to 2/);
  });

  test("a key is given the permissions the contract names, never the keyless probes' \"none\"", async () => {
    const refused = await startMock({ port: 0, keys: [{ key: "k", organisation: 1, permissions: ["none"], label: "probe" }] }).then(
      async (mock) => (await mock.close(), "started"),
      (error: Error) => error.message,
    );
    const [, known] = /^keys: entry 1: unknown permission "none" \(known: (.*)\)$/.exec(refused) ?? [, `not refused so: ${refused}`];
    expect(known.split(", ").sort(), "the permission names the mock knows").toEqual([...KNOWN_PERMISSIONS].sort());
  });

  test("a missing keys file is one clear error", async () => {
    await expect(startMock({ port: 0, keys: join(tmp, "none.json") })).rejects.toThrow(/cannot read keys file .*none\.json: no such file/);
  });
});

describe("start-up options are checked", () => {
  const cases: [string, { given: StartMockOptions; says: string }][] = [
    ["a port above 65535", { given: { port: 70000 }, says: "port must be" }],
    ["a negative scale", { given: { scale: -1 }, says: "scale must be" }],
    ["a rate limit of 0", { given: { rateLimit: 0 }, says: "rateLimit must be" }],
    ["a fail rate above 1", { given: { failRate: 2 }, says: "failRate must be" }],
    ["a negative latency", { given: { latencyMs: -5 }, says: "latencyMs must be" }],
    ["failureStatus 500", { given: { failureStatus: 500 as never }, says: "failureStatus must be" }],
    ["a today that is no date", { given: { today: "2026-02-30" }, says: 'today must be a date YYYY-MM-DD from 1900-01-01 to 9000-12-31, got "2026-02-30"' }],
    ["a today beyond the years the dataset spans", { given: { today: "9999-12-31" }, says: "today must be a date YYYY-MM-DD from 1900-01-01 to 9000-12-31" }],
    ["a rate limit above the command line's ceiling", { given: { rateLimit: 2_000_000_000 }, says: 'rateLimit must be a whole number of at least 1, or "off", got 2000000000' }],
    ["a state address of another scheme", { given: { state: "valkey://127.0.0.1:6379" }, says: "state must be a directory or a Redis address" }],
  ];
  test.each(cases)("%s", async (_name, { given, says }) => {
    await expect(startMock({ port: 0, ...given })).rejects.toThrow(MockOptionError);
    await expect(startMock({ port: 0, ...given })).rejects.toThrow(says);
  });

  test("a port in use is one clear error", async () => {
    await withMock({}, async (mock) => {
      await expect(startMock({ port: mock.port })).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    });
  });
});

describe("logging", () => {
  test("one line per request, naming the caller's label, never a key", async () => {
    const lines: string[] = [];
    await withMock({ log: (line) => lines.push(line) }, async (mock) => {
      await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
      await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer("some-secret-key") });
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/v1\/leavetype\/list 200 [\d.]+ ms \[org 1, leave and employee management\]$/);
    expect(lines[1]).toMatch(/^GET \/v1\/leavetype\/list 401 /);
    expect(lines.join("\n")).not.toMatch(/demo_org|some-secret-key/);
  });

  test("off by default: nothing is logged", async () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      await withMock({}, (mock) => fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) }));
    } finally {
      process.stdout.write = write;
    }
    expect(lines).toEqual([]);
  });
});

describe("CORS", () => {
  let mock: RunningMock;
  let named: RunningMock;
  beforeAll(async () => {
    [mock, named] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, corsOrigins: ["http://localhost:5173"] })]);
  });
  afterAll(() => Promise.all([mock?.close(), named?.close()]));

  const preflight = (on: RunningMock, path: string, origin: string) =>
    fetch(`${on.url}${path}`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });

  const cases: Array<[string, { given: { named: boolean; path: string; origin: string }; want: { status: number; allowOrigin: string | null } }]> = [
    ["the read API, any origin", { given: { named: false, path: "/v1/leaverequest/list", origin: "http://localhost:5173" }, want: { status: 204, allowOrigin: "http://localhost:5173" } }],
    ["the control API, no origin named", { given: { named: false, path: "/_mock/webhooks/endpoints", origin: "http://localhost:5173" }, want: { status: 403, allowOrigin: null } }],
    ["the control API, the origin named with --cors-origin", { given: { named: true, path: "/_mock/webhooks/endpoints", origin: "http://localhost:5173" }, want: { status: 204, allowOrigin: "http://localhost:5173" } }],
    ["the control API, another origin than the one named", { given: { named: true, path: "/_mock/webhooks/events", origin: "https://evil.example" }, want: { status: 403, allowOrigin: null } }],
  ];
  test.each(cases)("a preflight to %s", async (_name, { given, want }) => {
    const response = await preflight(given.named ? named : mock, given.path, given.origin);
    expect(response.status).toBe(want.status);
    expect(response.headers.get("access-control-allow-origin")).toBe(want.allowOrigin);
    expect(response.headers.get("access-control-allow-credentials"), "keys travel in a header, never in cookies").toBeNull();
    if (want.status === 204) expect(response.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    else expect((await response.json()).message).toMatch(/^Forbidden: the control API answers pages only from the origins given with --cors-origin/);
  });

  test("read API answers carry Access-Control-Allow-Origin and expose the rate-limit headers", async () => {
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), origin: "http://localhost:3000" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(answer.headers.get("access-control-expose-headers")).toContain("Retry-After");
    const plain = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
    expect(plain.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("failures carry them too, so a browser can read the envelope", async () => {
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { origin: "http://localhost:3000" } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  test("control API answers carry no CORS header for an origin nobody named", async () => {
    const answer = await fetchAnswer(mock, "/_mock/webhooks/endpoints", { headers: { ...bearer(DEMO_KEY.org1WebhooksAdmin), origin: "http://localhost:3000" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test.each([["not a URL", "localhost:5173"], ["a path", "http://localhost:5173/app"], ["another scheme", "file:///tmp"]])("corsOrigins refuses %s in one sentence", async (_name, origin) => {
    await expect(startMock({ port: 0, corsOrigins: [origin] })).rejects.toThrow(/^corsOrigins: .* is not an origin; write/);
  });
});

describe("/docs and mounted routes", () => {
  test("without a built site, /docs is a 404 envelope that says how to build it", async () => {
    await withMock({ docsDir: join(tmp, "no-site") }, async (mock) => {
      const answer = await fetchAnswer(mock, "/docs/");
      expect(answer.status).toBe(404);
      expect(isFailureEnvelope(answer.body, 404), answer.text).toBe(true);
      expect(answer.body.message).toContain("npm run docs");
    });
  });

  test("a built site is served under /docs, and paths cannot leave it", async () => {
    const site = join(tmp, "site");
    await import("node:fs/promises").then((fs) => fs.mkdir(join(site, "api"), { recursive: true }));
    await writeFile(join(site, "index.html"), "<h1>docs</h1>");
    await writeFile(join(site, "api", "index.html"), "<h1>api</h1>");
    await writeFile(join(tmp, "secret.txt"), "secret");
    await withMock({ docsDir: site }, async (mock) => {
      const index = await fetch(`${mock.url}/docs/`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await index.text()).toBe("<h1>docs</h1>");
      expect(await (await fetch(`${mock.url}/docs/api/`)).text()).toBe("<h1>api</h1>");
      const redirect = await fetch(`${mock.url}/docs`, { redirect: "manual" });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.get("location")).toBe("/docs/");
      const escape = await rawGet(mock, "/docs/..%2Fsecret.txt");
      expect(escape.status).toBe(404);
      expect(escape.body).not.toContain("secret\n");
      expect(JSON.parse(escape.body).isSuccessful).toBe(false);
      for (const path of ["/docs/%zz", "/docs/index.html%00", "/docs/missing.html"]) {
        const missing = await rawGet(mock, path);
        expect({ path, status: missing.status, message: JSON.parse(missing.body).message }).toEqual({ path, status: 404, message: "Not found: no such page in the docs." });
      }
    });
  });

  test("mount() serves a prefix with its own handler; other paths are unaffected", async () => {
    await withMock({}, async (mock) => {
      mock.mount("/_extra/", (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ mounted: true }));
      });
      const mounted = await fetchAnswer(mock, "/_extra/things");
      expect(mounted.body).toEqual({ mounted: true });
      const api = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
      expect(api.status).toBe(200);
      expect(() => mock.mount("/_extra", () => {})).toThrow(/mounted already/);
    });
  });

  const unreadable: [string, { given: string; says: string }][] = [
    ["a malformed header line", { given: "GET /v1 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", says: "a header line is malformed" }],
    ["headers over 16 KB", { given: `GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, says: "the request line and headers exceed 16 KB" }],
    ["a URL over 16 KB", { given: `GET /v1/leaverequest/list?SearchTerm=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, says: "shorten the URL" }],
    ["a method that is no HTTP method", { given: "FROB /v1 HTTP/1.1\r\nHost: x\r\n\r\n", says: "not an HTTP method" }],
  ];
  test.each(unreadable)("a request Node cannot parse (%s) still gets an envelope saying why in words", async (_name, { given, says }) => {
    await withMock({}, async (mock) => {
      const { createConnection } = await import("node:net");
      const text = await new Promise<string>((resolve, reject) => {
        const socket = createConnection(mock.port, "127.0.0.1", () => socket.write(given));
        let data = "";
        socket.on("data", (chunk) => (data += chunk));
        socket.on("end", () => resolve(data));
        socket.on("error", reject);
      });
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(text.split("\r\n\r\n")[1]);
      expect(body).toMatchObject({ isSuccessful: false, code: "400", data: null });
      expect(body.message).toMatch(/^Bad request: the HTTP request could not be read: /);
      expect(body.message).toContain(says);
      expect(body.message, "no parser code").not.toMatch(/HPE_/);
    });
  });
});

const unbuilt = (): never => {
  throw new Error("this test's organisations have ids only");
};

describe("a handler that throws", () => {
  test("is a 500 envelope without a stack, and one log line without the key", async () => {
    const loaded = await loadSpec();
    const errors: string[] = [];
    const dispatch = createDispatcher({
      spec: loaded,
      // Two organisations with ids only (building either throws): the handler that throws reads nothing.
      worlds: new Worlds({ start: datasetOf({ seed: 1, scale: 1, today: "2026-11-02" }, new OrganizationTable(["org-a", "org-b"].map((id) => new LazyOrganization(id, { name: id, build: unbuilt })))), keys: DEMO_KEYS, sandboxKeys: DEMO_KEYS, state: memoryBackend({ rateLimit: "off" }) }),
      table: readOperations(
        {
          ...handlers,
          listLeaveTypes: () => {
            throw new TypeError("boom at line 12");
          },
        },
      ),
      failRate: 0,
      random: Math.random,
      cache: new ResponseCache(1_000_000),
      now: () => 0,
      onInternalError: (line) => errors.push(line),
    });
    const reply = await dispatch({ method: "GET", url: "/v1/leavetype/list", headers: bearer(DEMO_KEY.org1Full) });
    expect(reply.status).toBe(500);
    const body = JSON.parse(String(reply.body));
    expect(isFailureEnvelope(body, 500), String(reply.body)).toBe(true);
    expect(String(reply.body)).not.toMatch(/boom|at line|\.ts/);
    expect(errors).toEqual(["hr-mock: internal error in listLeaveTypes: TypeError: boom at line 12"]);
    expect(spec.check("listLeaveTypes", reply.status, body)).toEqual([]);
  });
});

function rawGet(mock: RunningMock, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: mock.port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the response cache follows the dataset", () => {
  test("after a change to the dataset, the same request gets the new answer", async () => {
    const { approveLeaveRequest } = await import("../../mock/data/mutations.js");
    await withMock({ today: "2026-06-15" }, async (mock) => {
      const path = `/v1/leaverequest/details/${mock.ids[0].waitingLeaveRequestId}`;
      const before = await fetchAnswer(mock, path, { headers: bearer(DEMO_KEY.org1Full) });
      const cachedAgain = await fetchAnswer(mock, path, { headers: bearer(DEMO_KEY.org1Full) });
      expect(cachedAgain.text).toBe(before.text);
      expect(before.body.data.leaveStatus).toBe("Submitted");
      const changed = approveLeaveRequest(mock.dataset, mock.ids[0].organizationId, mock.ids[0].waitingLeaveRequestId);
      expect(changed.ok).toBe(true);
      const after = await fetchAnswer(mock, path, { headers: bearer(DEMO_KEY.org1Full) });
      expect(after.body.data.leaveStatus).toBe("Approved");
    });
  });

  test("organisations never share a cached answer for the same URL", async () => {
    await withMock({}, async (mock) => {
      const one = await fetchAnswer(mock, "/v1/department/list", { headers: bearer(DEMO_KEY.org1Full) });
      const two = await fetchAnswer(mock, "/v1/department/list", { headers: bearer(DEMO_KEY.org2Full) });
      expect(one.text).not.toBe(two.text);
    });
  });
});

test("the example keys file in mock/keys loads", async () => {
  const { fileURLToPath } = await import("node:url");
  const file = fileURLToPath(new URL("../../mock/keys/example-keys.json", import.meta.url));
  await withMock({ keys: file }, async (mock) => {
    expect(mock.keys.filter((k) => !k.demo).map((k) => k.label)).toEqual(["frontend team, leave only", "CI of the integration team"]);
  });
});
