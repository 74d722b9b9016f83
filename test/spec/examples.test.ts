// Every example in both documents validates against its own schema.
import { describe, expect, it } from "vitest";
import { deref, loadAsyncApi, loadOpenApi, operationsOf } from "../../scripts/lib/spec-document.js";
import { createDocumentValidator, walk } from "../../scripts/lib/spec-validator.js";

interface ExampleCase { pointer: string; schemaPointer: string; value: unknown }

/** Examples on schemas (including properties), on parameters and headers, and on media types (single or named). */
function collectExamples(doc: any): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [pointer, node] of walk(doc)) {
    if (pointer.includes("/examples/") && !pointer.endsWith("/examples")) continue;
    if (/\/content\/[^/]+$/.test(pointer) && "schema" in node && node.examples && typeof node.examples === "object") {
      for (const [name, example] of Object.entries<any>(node.examples)) {
        cases.push({ pointer: `${pointer}/examples/${name}/value`, schemaPointer: `${pointer}/schema`, value: example.value });
      }
    }
    if (!("example" in node)) continue;
    const isParameterLike = "schema" in node && ("in" in node || pointer.includes("/headers/"));
    const isMediaType = "schema" in node && /\/content\/[^/]+$/.test(pointer);
    if (isParameterLike || isMediaType) {
      cases.push({ pointer: `${pointer}/example`, schemaPointer: `${pointer}/schema`, value: node.example });
    } else if (!("in" in node) && !pointer.endsWith("/example")) {
      cases.push({ pointer: `${pointer}/example`, schemaPointer: pointer, value: node.example });
    }
  }
  return cases;
}

describe.each([
  ["OpenAPI", loadOpenApi],
  ["AsyncAPI", loadAsyncApi],
])("%s examples", (_name, load) => {
  const doc = load();
  const validator = createDocumentValidator(doc);
  const cases = collectExamples(doc);

  it("has examples to check", () => {
    expect(cases.length, "no example found: the documents must carry examples").toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [c.pointer, c]))("%s", (_p, c: ExampleCase) => {
    const errors = validator.validate(c.schemaPointer, c.value);
    expect(errors, `example at ${c.pointer} does not match its schema: ${errors.join("; ")}`).toEqual([]);
  });
});

/** Each response of each read-API operation with each of its media types, as the case name says it. */
function responseMedia(openapi: any): [string, { pointer: string; media: any }][] {
  const out: [string, { pointer: string; media: any }][] = [];
  for (const [method, path, operation] of operationsOf(openapi)) {
    for (const [status, ref] of Object.entries<any>(operation.responses ?? {})) {
      const pointer = ref.$ref ?? `#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}/responses/${status}`;
      for (const [mediaType, media] of Object.entries<any>(deref(openapi, ref).content ?? {})) {
        out.push([`${operation.operationId} ${status} ${mediaType}`, { pointer: `${pointer}/content/${mediaType.replaceAll("/", "~1")}`, media }]);
      }
    }
  }
  return out;
}

describe("every response of the read API has a named example that validates against its schema", () => {
  const openapi = loadOpenApi();
  const validator = createDocumentValidator(openapi);
  const media = responseMedia(openapi);

  it("has responses to check", () => {
    expect(media.length, "no response with content found in generated/openapi.json").toBeGreaterThanOrEqual(7 * 8);
  });

  it.each(media)("%s", (name, { pointer, media: content }) => {
    const examples = Object.entries<any>(content.examples ?? {});
    expect(examples.map(([key]) => key), `${name}: no named example (examples: on the media type)`).not.toEqual([]);
    for (const [key, example] of examples) {
      const errors = validator.validate(`${pointer.slice(1)}/schema`, example.value);
      expect(errors, `${name}: example ${key} does not match the response schema: ${errors.join("; ")}`).toEqual([]);
    }
  });

  it.each(operationsOf(openapi).map(([, , operation]) => [operation.operationId, operation] as [string, any]))("%s names each example once", (_id, operation) => {
    const keys = Object.values<any>(operation.responses).flatMap((response) => Object.values<any>(deref(openapi, response).content ?? {}).flatMap((content) => Object.keys(content.examples ?? {})));
    expect(keys.filter((key, i) => keys.indexOf(key) !== i), "example names used by more than one response: Prefer: example=<name> would be ambiguous").toEqual([]);
  });
});
