// The mock's parameter validator (param-validation.ts) stands in for Prism's `validateInput`: for
// every operation of both documents and a table of values a client may send (good ones, wrong types,
// empty, repeated, names in another case, commas, percent-escapes, missing required ones), it finds
// what Prism's own finds: the same diagnostics (codes, paths, messages, severities) in the same order.
import { beforeAll, describe, expect, test } from "vitest";
import { loadSpec, type LoadedSpec, type SpecOperation } from "../../mock/kernel/spec.js";
import { parameterValidator } from "../../mock/pipeline/param-validation.js";
import { prismComponents } from "../../mock/pipeline/route.js";

let spec: LoadedSpec;
const prisms = prismComponents().validateInput;
let ours: typeof prisms;
beforeAll(async () => {
  spec = await loadSpec();
  ours = parameterValidator(spec.operations, () => {
    throw new Error("handed to Prism's validator");
  });
});

const uuid = "6f1c2a7e-2b51-4c3e-9d4a-0c8e2f6b1a90";
/** Values for any parameter: each is tried alone, under the spec's name and in other letter cases. */
const VALUES: (string | string[])[] = [
  "", "1", "0", "-1", "25", "100", "101", "1e1", "+5", " 10", "0x10", "2.5", "abc", "true", "false", "TRUE",
  uuid, uuid.toUpperCase(), "not-a-uuid", `${uuid},${uuid}`, "2026-12-01", "2026-13-01", "2026-12-01T00:00:00Z",
  "Approved", "approved", "3", "9", "Active", "a,b", "x".repeat(210), "100%", "é", "a@b.co",
  ["1", "2"], ["", ""], [uuid, "nope"], ["Approved", "Pending"],
];
const PATH_VALUES = ["", "abc", uuid, uuid.toUpperCase(), "a,b", `${uuid},${uuid}`, "%41bc", "x%2Fy", "%25"];

function cases(op: SpecOperation): [string, { query: Record<string, string | string[]>; path: string }][] {
  const out: [string, { query: Record<string, string | string[]>; path: string }][] = [];
  const path = (value: string) => op.path.replace(/\{[^}]+\}/g, value);
  out.push(["no parameters", { query: {}, path: path(uuid) }]);
  out.push(["an unknown parameter", { query: { nocache: "1", Other: ["a", "b"] }, path: path(uuid) }]);
  for (const param of op.queryParams) {
    for (const value of VALUES) {
      out.push([`${param.name}=${JSON.stringify(value)}`, { query: { [param.name]: value }, path: path(uuid) }]);
      out.push([`${param.name.toLowerCase()}=${JSON.stringify(value)}`, { query: { [param.name.toLowerCase()]: value }, path: path(uuid) }]);
    }
    out.push([`${param.name} twice in two cases`, { query: { [param.name.toUpperCase()]: "abc", [param.name]: "1" }, path: path(uuid) }]);
  }
  if (op.queryParams.length > 1) out.push(["every parameter wrong", { query: Object.fromEntries(op.queryParams.map((p) => [p.name, "%%"])), path: path(uuid) }]);
  if (op.pathParams.length > 0) for (const value of PATH_VALUES) out.push([`path ${JSON.stringify(value)}`, { query: {}, path: path(value) }]);
  return out;
}

describe("the mock's parameter validator finds what Prism's finds", () => {
  test("it checks the read API's operations itself (Prism's own checks only what it cannot)", () => {
    const read = spec.operations.filter((op) => op.api === "read");
    const handed = read.filter((op) => {
      try {
        ours({ resource: op.prism, element: { method: "get", url: { path: op.path, query: {} }, headers: {} } });
        return false;
      } catch {
        return true;
      }
    });
    expect(handed.map((op) => op.operationId), "read operations left to Prism's validator").toEqual([]);
  });

  test("for every operation and value, the same diagnostics", () => {
    let compared = 0;
    const differences: string[] = [];
    for (const op of spec.operations) {
      for (const [name, { query, path }] of cases(op)) {
        const input = { resource: op.prism, element: { method: op.method.toLowerCase() as "get", url: { path, query }, headers: { host: "x" } } };
        const outcome = (validate: typeof prisms) => {
          try {
            return validate(input);
          } catch (error) {
            return { threw: (error as Error).message };
          }
        };
        const mine = outcome(ours);
        if ("threw" in mine && mine.threw === "handed to Prism's validator") continue;
        compared++;
        const theirs = outcome(prisms);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) differences.push(`${op.operationId} ${name}: ours ${JSON.stringify(mine).slice(0, 300)} / Prism's ${JSON.stringify(theirs).slice(0, 300)}`);
      }
    }
    expect(differences, "requests whose diagnostics differ from Prism's").toEqual([]);
    expect(compared, "requests compared").toBeGreaterThan(1000);
  });
});
