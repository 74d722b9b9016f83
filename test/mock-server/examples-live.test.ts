// The contract's examples are live: every operation, asked with every parameter's example from the
// bundled document (the request a reader copies from the API reference, and the one Portman, Dredd
// or Specmatic build), answers the default dataset's mock with the status its example documents,
// and names the record its example names; --today moves no id.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleIds } from "../../generated/facts.js";
import { startMock, DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { deref } from "../../src/contract/spec-document.js";

const doc = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated/openapi.json"), "utf8"));
let mock: RunningMock;
beforeAll(async () => {
  // A --today far from the examples' dates: the ids and the answers' statuses do not depend on it.
  mock = await startMock({ port: 0, today: "2031-02-01", rateLimit: "off" });
});
afterAll(() => mock?.close());

/** Each operation's example request: the path with its examples, every query parameter with its example; and the success example's body. */
const requests = Object.entries<Record<string, any>>(doc.paths).flatMap(([template, item]) =>
  Object.entries<any>(item).map(([method, op]) => {
    const query = new URLSearchParams();
    let url = template;
    for (const param of (op.parameters ?? []).map((p: unknown) => deref(doc, p))) {
      if (param.in === "path") url = url.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
      if (param.in === "query") for (const value of Array.isArray(param.example) ? param.example : [param.example]) query.append(param.name, String(value));
    }
    const [status, response] = Object.entries<any>(op.responses).find(([code]) => /^2/.test(code))!;
    const content = deref(doc, response).content?.["application/json"];
    const example = content?.example ?? Object.values<any>(content?.examples ?? {})[0]?.value;
    return [`${method.toUpperCase()} ${url}${query.size ? `?${query}` : ""}`, { method, url: `${url}${query.size ? `?${query}` : ""}`, status: Number(status), example }] as const;
  }),
);

describe("the contract's example requests against the default dataset", () => {
  it("name the ids organisation 1's records carry", () => {
    expect(Object.keys(exampleIds).sort()).toEqual(["company", "department", "employee", "leaveRequest", "leaveType"]);
  });

  it.each(requests)("%s answers its documented status and the records its example names", async (_, { method, url, status, example }) => {
    const response = await fetch(`${mock.url}${url}`, { method: method.toUpperCase(), headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    const body = await response.json();
    expect(response.status, `${url}: ${body.message}`).toBe(status);
    // Every id of organisation 1's example records the example shows, the answer shows at the same place (a list's: in some item).
    const ids = new Set<unknown>(Object.values(exampleIds));
    for (const [key, value] of Object.entries<any>(example?.data ?? {})) {
      if (ids.has(value)) expect(body.data[key], `data.${key}`).toBe(value);
      if (Array.isArray(value) && key !== "data") {
        for (const item of value) if (ids.has(item?.id)) expect(body.data[key].map((x: { id: string }) => x.id), `data.${key}[].id`).toContain(item.id);
      }
    }
  });
});
