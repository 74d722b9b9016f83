// Behaviours third-party clients found wrong, each named, each answered as the spec declares.
import { createConnection } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { cut, quote } from "../../mock/kernel/text.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { bearer, fetchAnswer, isFailureEnvelope } from "./support.js";

const spec = createOpenApiValidator();
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off" });
});
afterAll(() => mock?.close());

/** A GET written on a socket, so a header may be repeated (fetch and http.request join or refuse them). */
function rawGet(path: string, headerLines: [string, string][]): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const lines = headerLines.map(([name, value]) => `${name}: ${value}\r\n`).join("");
    const socket = createConnection(mock.port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}Connection: close\r\n\r\n`));
    let data = "";
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = data.split("\r\n\r\n")[1] ?? "";
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text, body: JSON.parse(text) });
    });
  });
}

describe("two Authorization headers", () => {
  test.each([
    ["with different keys", [`Bearer ${DEMO_KEY.org1Full}`, `Bearer ${DEMO_KEY.org2Full}`]],
    ["with the same key twice", [`Bearer ${DEMO_KEY.org1Full}`, `Bearer ${DEMO_KEY.org1Full}`]],
  ])("%s are a 401 that names the cause, not the first one winning", async (_name, values) => {
    const answer = await rawGet("/v1/leavetype/list", values.map((v) => ["Authorization", v] as [string, string]));
    expect(answer.status, answer.text).toBe(401);
    expect(answer.body.message).toContain("2 Authorization headers");
    expect(spec.check("listLeaveTypes", answer.status, answer.body)).toEqual([]);
  });

  test("one Authorization header still reads", async () => {
    expect((await rawGet("/v1/leavetype/list", [["Authorization", `Bearer ${DEMO_KEY.org1Full}`]])).status).toBe(200);
  });
});

describe("every Prefer combination answers something the spec declares", () => {
  const combinations = ["code=200, example=nope", "code=404, example=nope", "code=200, example=default", "code=400, example=nope", "code=503, example=nope", "example=nope, dynamic=true", "code=500", "code=503", "code=599", "code=200, dynamic=true, example=nope"];
  test.each(combinations)("Prefer: %s is never a 500 of the mock's own", async (prefer) => {
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer } });
    const forced5xx = /code=5\d\d/.test(prefer) && answer.status >= 500;
    expect(answer.status < 500 || forced5xx, `${prefer} → ${answer.status} ${answer.text.slice(0, 200)}`).toBe(true);
    expect(spec.check("listLeaveTypes", answer.status, answer.body), answer.text.slice(0, 300)).toEqual([]);
  });

  test.each([500, 502, 503, 504])("a forced %i answers an envelope whose code is that status", async (status) => {
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: { ...bearer(DEMO_KEY.org1Full), prefer: `code=${status}` } });
    expect(answer.status).toBe(status);
    expect(isFailureEnvelope(answer.body, status), answer.text).toBe(true);
  });
});

describe("quoted input is cut on character boundaries", () => {
  test("cut() never leaves half a surrogate pair", () => {
    for (let at = 50; at < 62; at++) {
      const text = `${"a".repeat(at)}${"😀".repeat(10)}`;
      const shown = cut(text, 60);
      expect(shown.length, `cut at ${at}`).toBeLessThanOrEqual(60);
      expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(shown), `a lone surrogate when the emoji start at ${at}: ${JSON.stringify(shown)}`).toBe(false);
    }
    expect(quote("short")).toBe('"short"');
  });

  test("a long SearchTerm of emoji echoed in a 400 is whole characters", async () => {
    const term = `${"x".repeat(56)}${"😀".repeat(80)}`;
    const answer = await fetchAnswer(mock, `/v1/leaverequest/list?SearchTerm=${encodeURIComponent(term)}&PageSize=0`, { headers: bearer(DEMO_KEY.org1Full) });
    expect(answer.status).toBe(400);
    expect(answer.text, "the body is well-formed UTF-8").not.toContain("\ufffd");
    expect(answer.body.message).toContain("PageSize");
  });
});
