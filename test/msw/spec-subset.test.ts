// generated/msw-spec.json, what a page's bundle carries of the documents, is enough: the operations
// the MSW handlers serve, read from it, are exactly those read from the whole documents (Prism's
// operations, parameters, statuses, permissions, request bodies and their bounds, case-insensitive
// values), and it holds no operation the handlers do not serve. Its repeated parts, written once, read
// back as they were (mock/kernel/shared-json.ts).
import { describe, expect, it } from "vitest";
import openapi from "../../generated/openapi.json" with { type: "json" };
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import prismOperations from "../../generated/prism-operations.json" with { type: "json" };
import mswSpecFile from "../../generated/msw-spec.json" with { type: "json" };
import { expandShared, shareRepeats } from "../../mock/kernel/shared-json.js";
import { SERVED_IDS } from "../../mock/edges/msw/served.js";
import { loadReadSpec, type PrismOperations } from "../../mock/kernel/spec.js";

describe("generated/msw-spec.json", () => {
  it("reads as the whole documents read for the operations the handlers serve", async () => {
    const served = (id: string) => SERVED_IDS.has(id);
    const mswSpec = expandShared<Record<string, { document: object; operations: unknown[] }>>(mswSpecFile);
    const whole = await loadReadSpec(openapi, undefined, { document: controlDocument, only: served }, prismOperations as unknown as PrismOperations);
    const ahead = { "openapi.json": mswSpec["openapi.json"].operations, "control-openapi.json": mswSpec["control-openapi.json"].operations } as unknown as PrismOperations;
    const subset = await loadReadSpec(mswSpec["openapi.json"].document, undefined, { document: mswSpec["control-openapi.json"].document, only: () => true }, ahead);
    expect(subset.operations.map((op) => op.operationId), "the operations, in the documents' order").toEqual(whole.operations.map((op) => op.operationId));
    expect(new Set(subset.operations.map((op) => op.operationId)), "the operations the handlers serve").toEqual(SERVED_IDS);
    expect(subset.operations.filter((op) => op.body).length, "operations with a request body (their bounds and schemas compared below)").toBeGreaterThan(0);
    expect(subset.operations.some((op) => op.queryParams.some((p) => p.caseInsensitive)), "parameters matched without regard to case").toBe(true);
    expect(subset.operations).toEqual(whole.operations);
  });
});

describe("shared parts (mock/kernel/shared-json.ts)", () => {
  const long = { description: "a schema long enough to be worth sharing, and repeated", type: "string", maxLength: 100 };
  const cases: [string, { given: unknown; shared: number }][] = [
    ["scalars and short parts stay where they are", { given: { a: 1, b: [true, null, "x"], c: { d: "short" } }, shared: 0 }],
    ["a repeated long part is written once", { given: { a: long, b: [long, { inner: long }] }, shared: 1 }],
    ["repeats inside repeats", { given: { a: { x: long, y: long }, b: { x: long, y: long } }, shared: 2 }],
  ];
  it.each(cases)("%s, and reads back as it was", (_name, { given, shared }) => {
    const written = shareRepeats(given);
    expect(written.shared.length, "parts in the table").toBe(shared);
    expect(expandShared(JSON.parse(JSON.stringify(written)))).toEqual(given);
  });

  it("reads a repeated part back as one object wherever it occurs", () => {
    const back = expandShared<{ a: object; b: object[] }>(shareRepeats({ a: long, b: [long] }));
    expect(back.a).toBe(back.b[0]);
  });

  it("refuses a value holding an object that looks like its own mark", () => {
    expect(() => shareRepeats({ a: { $shared: 1 } })).toThrow("an object whose only key is $shared cannot be written with shared parts");
  });
});
