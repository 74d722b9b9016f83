// generated/msw-spec.json, what a page's bundle carries of the documents, is enough: the operations
// the MSW handlers serve, read from it, are exactly those read from the whole documents (Prism's
// operations, parameters, statuses, permissions, request bodies and their bounds, case-insensitive
// values), and it holds no operation the handlers do not serve.
import { describe, expect, it } from "vitest";
import openapi from "../../generated/openapi.json" with { type: "json" };
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import prismOperations from "../../generated/prism-operations.json" with { type: "json" };
import mswSpec from "../../generated/msw-spec.json" with { type: "json" };
import { SERVED_IDS } from "../../mock/edges/msw/served.js";
import { loadReadSpec, type PrismOperations } from "../../mock/kernel/spec.js";

describe("generated/msw-spec.json", () => {
  it("reads as the whole documents read for the operations the handlers serve", async () => {
    const served = (id: string) => SERVED_IDS.has(id);
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
