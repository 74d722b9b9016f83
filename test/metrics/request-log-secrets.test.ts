// No secret in a request line (--log), text or JSON: a query value that looks like one of the mock's
// keys (a demo key, a sandbox key) or a signing secret, and the value of any parameter the contract
// does not define, is shown as "…"; the operation's own parameters keep their values, and a target
// with nothing to hide is printed as it was sent. The journal keeps what it keeps.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, DEMO_KEY_PREFIX, SANDBOX_KEY_PREFIX } from "../../mock/keys/demo-keys.js";
import { SECRET_PREFIX } from "../../mock/kernel/text.js";
import { startMock, type RunningMock } from "../../mock/index.js";

const SANDBOX_KEY = `${SANDBOX_KEY_PREFIX}Xq3vN8pL2mR7tY1w_org1_full`;
const SECRET = `${SECRET_PREFIX}c2VjcmV0LXNpZ25pbmcta2V5LW9mLXRoZS10ZXN0`;
const mocks: RunningMock[] = [];
const lines: Record<"text" | "json", string[]> = { text: [], json: [] };

beforeAll(async () => {
  for (const format of ["text", "json"] as const) {
    mocks.push(await startMock({ port: 0, scale: 0.1, rateLimit: "off", authThrottle: "off", logFormat: format, log: (line) => lines[format].push(line), webhooks: { log: () => {} } }));
  }
});
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

type Case = [string, { given: string; want: string }];
const cases: Case[] = [
  [
    "the issue's target: a key, a sandbox key and a secret in parameters the contract does not define",
    { given: `/v1/department/list?apiKey=${DEMO_KEY.org1Full}&k=${SANDBOX_KEY}&s=${SECRET}`, want: "/v1/department/list?apiKey=…&k=…&s=…" },
  ],
  ["an unknown parameter's value, whatever it looks like", { given: "/v1/department/list?token=abc123&PageSize=2", want: "/v1/department/list?token=…&PageSize=2" }],
  ["a defined parameter holding a key", { given: `/v1/department/list?SearchTerm=${DEMO_KEY.org2Full}`, want: "/v1/department/list?SearchTerm=…" }],
  ["a defined parameter holding a secret, percent-encoded", { given: `/v1/department/list?SearchTerm=${encodeURIComponent(SECRET).replace("_", "%5F")}`, want: "/v1/department/list?SearchTerm=…" }],
  ["a defined parameter holding a sandbox key among other words", { given: `/v1/department/list?SearchTerm=my+${SANDBOX_KEY}`, want: "/v1/department/list?SearchTerm=…" }],
  ["nothing to hide: as sent, encoding included", { given: "/v1/department/list?SearchTerm=a%20b&PageSize=1&pagenumber=2", want: "/v1/department/list?SearchTerm=a%20b&PageSize=1&pagenumber=2" }],
  ["a path the contract does not have: every value hidden", { given: `/v1/nothing?x=1&apiKey=${DEMO_KEY_PREFIX}x`, want: "/v1/nothing?x=…&apiKey=…" }],
];

describe("request lines hide what may be a secret", () => {
  it.each(cases)("%s", async (_name, { given, want }) => {
    const [text, json] = mocks;
    for (const mock of [text, json]) {
      const response = await fetch(`${mock.url}${given}`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
      await response.arrayBuffer();
    }
    const textLine = lines.text.find((l) => l.includes(given.split("?")[0]) && l.includes(want));
    expect(textLine, `a text line showing ${want}; lines: ${lines.text.slice(-3).join(" | ")}`).toBeDefined();
    const jsonLine = lines.json.map((l) => JSON.parse(l) as { url?: string; message: string }).find((l) => l.url === want);
    expect(jsonLine, `a JSON line whose url is ${want}; lines: ${lines.json.slice(-3).join(" | ")}`).toBeDefined();
    expect(jsonLine!.message, "its message").toContain(want);
    for (const secret of [DEMO_KEY.org1Full, DEMO_KEY.org2Full, SANDBOX_KEY, SECRET, "abc123"]) {
      expect([...lines.text, ...lines.json].filter((l) => l.includes(secret)), `lines holding ${secret}`).toEqual([]);
    }
  });

  it("the journal keeps the query as it keeps it", async () => {
    const [mock] = mocks;
    await (await fetch(`${mock.url}/v1/department/list?PageSize=1&apiKey=${DEMO_KEY.org1Full}`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } })).arrayBuffer();
    const recorded = (await mock.requests({ operationId: "listDepartments" })).find((r) => r.query.apiKey !== undefined);
    expect(recorded?.query, "the journal's record of the request").toMatchObject({ PageSize: "1", apiKey: DEMO_KEY.org1Full });
  });
});
