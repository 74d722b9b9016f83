// generated/openapi.failure-200.json is openapi.json with one change per operation: its 200 may also
// carry the envelope of its failure responses, with the headers they bring (optional), marked with
// an x-assumption. Whether real answers fit it is hey-api-client.test.ts's job; this is its shape.
import { describe, expect, it } from "vitest";
import { deref, loadJson, operationsOf } from "../../scripts/lib/spec-document.js";
import { FAILURE_200_ASSUMPTION, renderFailure200Variant } from "../../scripts/generate/failure-200.js";

const bundled = loadJson("generated/openapi.json");
const variant = loadJson("generated/openapi.failure-200.json");
const json200 = (op: any) => op.responses["200"].content["application/json"];
const failureStatuses = (op: any) => Object.keys(op.responses).filter((status) => /^[45]/.test(status));

const cases = operationsOf(bundled).map(([method, path, op]) => [op.operationId as string, { before: op, after: variant.paths[path][method] }] as const);

describe("each operation's 200 in the failure-200 variant", () => {
  it.each(cases)("%s: the success envelope or its failures' envelope", (id, { before, after }) => {
    const failures = [...new Set(failureStatuses(before).map((s) => JSON.stringify(deref(bundled, before.responses[s]).content["application/json"].schema)))].map((s) => JSON.parse(s));
    expect(failures.length, `${id}: failure responses in openapi.json`).toBeGreaterThan(0);
    expect(json200(after).schema, `${id}: the 200's schema`).toEqual({ oneOf: [json200(before).schema, ...failures] });
    expect(after.responses["200"]["x-assumption"], `${id}: the 200 says why`).toBe(FAILURE_200_ASSUMPTION);
  });

  it.each(cases)("%s: declares every header its failures bring, none of them required", (id, { before, after }) => {
    const headers = after.responses["200"].headers;
    for (const status of failureStatuses(before)) {
      for (const name of Object.keys(deref(bundled, before.responses[status]).headers ?? {})) {
        expect(headers[name], `${id}: ${name} (sent with ${status}) is not declared on the 200`).toBeDefined();
        expect(deref(variant, headers[name]).required, `${id}: ${name} is required on a 200, which a success does not send`).not.toBe(true);
      }
    }
  });

  it.each(cases)("%s: shows its own examples and every failure's", (id, { before, after }) => {
    const values = (media: any) => (media.examples ? Object.values<any>(media.examples).map((e) => deref(bundled, e).value) : media.example === undefined ? [] : [media.example]);
    const failures = failureStatuses(before).flatMap((s) => values(deref(bundled, before.responses[s]).content["application/json"]));
    expect(failures.length, `${id}: the failure responses of openapi.json show no example`).toBeGreaterThan(0);
    expect(Object.values<any>(json200(after).examples).map((e) => e.value), `${id}: the 200's examples`).toEqual([...values(json200(before)), ...failures]);
    expect(json200(after).example, `${id}: a single example beside examples`).toBeUndefined();
  });
});

describe("the rest of the variant", () => {
  it("is openapi.json unchanged, but for the 200s and the info", () => {
    const strip = (doc: any) => {
      const copy = structuredClone(doc);
      delete copy.info;
      for (const [method, path] of operationsOf(copy)) delete copy.paths[path][method].responses["200"];
      return copy;
    };
    expect(strip(variant)).toEqual(strip(bundled));
    expect(variant.info.description, "the info says which variant this is").toMatch(/failures with HTTP 200/);
  });

  it("keeps named examples (maps) under their names, a failure's prefixed with its status", () => {
    const doc = structuredClone(bundled);
    const media = doc.paths["/v1/leavetype/list"].get.responses["200"].content["application/json"];
    const success = { isSuccessful: true, code: "00", message: "Success", data: { data: [], pageNumber: 1, pageSize: 25, totalRecords: 0, totalPages: 0 } };
    delete media.example;
    media.examples = { emptyPage: { summary: "No leave types", value: success } };
    const notFound = doc.components.responses.NotFound.content["application/json"];
    const failure = { isSuccessful: false, code: "404", message: "Not found: no such leave type.", data: null };
    delete notFound.example;
    notFound.examples = { unknownId: { value: failure } };
    // The 400 as a single, unnamed example (the form a media type may also take).
    const badRequest = doc.components.responses.BadRequest.content["application/json"];
    const single = { isSuccessful: false, code: "400", message: "Bad request: PageSize must be at most 100.", data: null };
    delete badRequest.examples;
    badRequest.example = single;
    const examples = renderFailure200Variant(doc).paths["/v1/leavetype/list"].get.responses["200"].content["application/json"].examples;
    expect(examples.emptyPage, "the 200's own named example").toEqual({ summary: "No leave types", value: success });
    expect(examples["failure-404-unknownId"], "the 404's named example").toEqual({ value: failure });
    expect(examples["failure-400"], "an unnamed (single) example of the 400").toEqual({ value: single });
  });

  it("refuses an operation with no failure response to join, naming it", () => {
    const doc = structuredClone(bundled);
    const op = doc.paths["/v1/leavetype/list"].get;
    for (const status of failureStatuses(op)) delete op.responses[status];
    expect(() => renderFailure200Variant(doc)).toThrow(/GET \/v1\/leavetype\/list has no JSON 200 or no failure response/);
  });
});
