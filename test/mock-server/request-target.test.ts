// Request targets other than a path (RFC 9112 3.2): an absolute-form target naming the mock is
// answered as its path (what an HTTP client configured with a proxy sends), one naming another host
// is refused in the envelope, and OPTIONS * is answered with the methods the mock serves. Never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { namesThisServer, readTarget } from "../../mock/edges/request-target.js";
import { rawRequest } from "../support/raw-http.js";

describe("readTarget", () => {
  const own = (url: URL) => url.host === "127.0.0.1:4010";
  const cases: [string, { given: string; want: ReturnType<typeof readTarget> }][] = [
    ["a path", { given: "/v1/leavetype/list?PageSize=2", want: { kind: "path", url: "/v1/leavetype/list?PageSize=2" } }],
    ["an absolute URL of this server", { given: "http://127.0.0.1:4010/v1/leavetype/list?PageSize=2", want: { kind: "path", url: "/v1/leavetype/list?PageSize=2" } }],
    ["its path kept as sent, not re-encoded", { given: "http://127.0.0.1:4010/v1/department/a%2Fb?SearchTerm=%C3%A9+x", want: { kind: "path", url: "/v1/department/a%2Fb?SearchTerm=%C3%A9+x" } }],
    ["no path at all is /", { given: "http://127.0.0.1:4010?PageSize=2", want: { kind: "path", url: "/?PageSize=2" } }],
    ["the scheme in capitals", { given: "HTTP://127.0.0.1:4010/v1/leavetype/list", want: { kind: "path", url: "/v1/leavetype/list" } }],
    ["another host", { given: "http://api.example.com/v1/leavetype/list", want: { kind: "foreign", origin: "http://api.example.com" } }],
    ["the asterisk", { given: "*", want: { kind: "asterisk" } }],
    ["an authority (CONNECT's form)", { given: "example.com:443", want: { kind: "invalid" } }],
    ["another scheme", { given: "ftp://127.0.0.1:4010/v1", want: { kind: "invalid" } }],
  ];
  it.each(cases)("%s", (_, { given, want }) => expect(readTarget(given, own)).toEqual(want));
});

describe("namesThisServer", () => {
  const local = { localAddress: "127.0.0.1", localPort: 4010 };
  const cases: [string, { given: [string, typeof local, string[]?]; want: boolean }][] = [
    ["its address and port", { given: ["http://127.0.0.1:4010/", local], want: true }],
    ["localhost on a loopback connection", { given: ["http://localhost:4010/", local], want: true }],
    ["[::1] on a loopback connection", { given: ["http://[::1]:4010/", local], want: true }],
    ["another port", { given: ["http://127.0.0.1:4011/", local], want: false }],
    ["the default port 80 when it listens on 80", { given: ["http://127.0.0.1/", { localAddress: "127.0.0.1", localPort: 80 }], want: true }],
    ["another host on its port", { given: ["http://example.com:4010/", local], want: false }],
    ["the host it was told to bind", { given: ["http://hr-mock.internal:4010/", { localAddress: "10.0.0.5", localPort: 4010 }, ["hr-mock.internal"]], want: true }],
    ["localhost on a connection that is not loopback", { given: ["http://localhost:4010/", { localAddress: "10.0.0.5", localPort: 4010 }], want: false }],
    ["an IPv4-mapped local address", { given: ["http://127.0.0.1:4010/", { localAddress: "::ffff:127.0.0.1", localPort: 4010 }], want: true }],
  ];
  it.each(cases)("%s", (_, { given: [url, at, names], want }) => expect(namesThisServer(new URL(url), at, names)).toBe(want));
});

describe("the mock on node:http", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: "off", onError: (line) => expect.fail(`the mock reported an internal error: ${line}`) });
  });
  afterAll(() => mock?.close());
  const key = { Authorization: `Bearer ${DEMO_KEY.org1Full}` };

  it("answers an absolute-form target naming it as its path, the same bytes", async () => {
    const direct = await rawRequest(mock.port, "GET /v1/leavetype/list?PageSize=2 HTTP/1.1", key);
    for (const host of [`127.0.0.1:${mock.port}`, `localhost:${mock.port}`]) {
      const absolute = await rawRequest(mock.port, `GET http://${host}/v1/leavetype/list?PageSize=2 HTTP/1.1`, { ...key, Host: host });
      expect(absolute?.status, `GET http://${host}/…`).toBe(200);
      expect(absolute?.body).toBe(direct?.body);
    }
  });

  it("routes an absolute-form target like its path: the control API, an unknown path", async () => {
    const control = await rawRequest(mock.port, `GET http://127.0.0.1:${mock.port}/_mock/webhooks/endpoints HTTP/1.1`, { Authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}` });
    expect(control?.status).toBe(200);
    const unknown = await rawRequest(mock.port, `GET http://127.0.0.1:${mock.port}/v1/nothing HTTP/1.1`, key);
    expect(unknown?.status).toBe(404);
    expect(JSON.parse(unknown!.body).message).toMatch(/^Not found: no operation at \/v1\/nothing/);
  });

  const refusals: [string, { given: string; want: { status: number; message: RegExp; allow?: string } }][] = [
    ["another host's URL", { given: "GET http://api.example.com/v1/leavetype/list HTTP/1.1", want: { status: 421, message: /^Misdirected request: the request is for http:\/\/api\.example\.com, but this is the HR service mock/ } }],
    ["OPTIONS *", { given: "OPTIONS * HTTP/1.1", want: { status: 200, message: /^Success$/, allow: "GET, POST, DELETE, HEAD" } }],
    ["GET *", { given: "GET * HTTP/1.1", want: { status: 400, message: /^Bad request: the request target \* is for OPTIONS only/ } }],
  ];
  it.each(refusals)("answers %s in the envelope", async (_, { given, want }) => {
    const answer = await rawRequest(mock.port, given, key);
    expect(answer?.status, given).toBe(want.status);
    expect(answer?.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer!.body).message).toMatch(want.message);
    if (want.allow) expect(answer?.headers.allow).toBe(want.allow);
  });
});
