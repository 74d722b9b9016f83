// Every example in both documents validates against its own schema.
import { describe, expect, it } from "vitest";
import { loadAsyncApi, loadOpenApi } from "../../scripts/lib/spec-document.js";
import { createDocumentValidator, walk } from "../../scripts/lib/spec-validator.js";

interface ExampleCase { pointer: string; schemaPointer: string; value: unknown }

/** Examples on schemas (including properties), on parameters and headers, and on media types. */
function collectExamples(doc: any): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const [pointer, node] of walk(doc)) {
    if (pointer.includes("/examples/") && !pointer.endsWith("/examples")) continue;
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
