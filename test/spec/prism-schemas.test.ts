// Every schema Prism validates requests with (generated/prism-operations.json, both documents) is
// valid against its draft's meta-schema: the Node bundle's Prism compiles them without that check
// (scripts/lib/prism-ajv.ts), which would otherwise have refused such a schema, and Prism would then
// have let every value through. A planted mistake shows the check can fail.
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";

type Schema = Record<string, unknown> & { $schema: string };

const options = { strict: false, allowUnionTypes: true, allowMatchingProperties: true };
const DRAFTS: Array<[RegExp, { validateSchema(schema: object): boolean | Promise<unknown>; errorsText(): string }]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, new Ajv2019(options)],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, new Ajv2020(options)],
  [/./, new Ajv(options)],
];

/** Every object with a `$schema` (what Prism hands its Ajv), each once. */
function schemasIn(value: unknown, found = new Set<Schema>()): Set<Schema> {
  if (value === null || typeof value !== "object") return found;
  if (typeof (value as Schema).$schema === "string") found.add(value as Schema);
  for (const inner of Object.values(value)) schemasIn(inner, found);
  return found;
}

function problem(schema: Schema): string | undefined {
  const [, ajv] = DRAFTS.find(([draft]) => draft.test(schema.$schema))!;
  return ajv.validateSchema(schema) === true ? undefined : ajv.errorsText();
}

const operations = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated/prism-operations.json"), "utf8"));

describe("Prism's schemas are valid against their meta-schemas", () => {
  const schemas = [...schemasIn(operations)];

  it("every one of them", () => {
    expect(schemas.length, "schemas found").toBeGreaterThan(100);
    const invalid = schemas.flatMap((schema) => {
      const why = problem(schema);
      return why === undefined ? [] : [`${JSON.stringify(schema).slice(0, 120)}: ${why}`];
    });
    expect(invalid, "schemas their meta-schema refuses").toEqual([]);
  });

  it("a planted mistake is refused", () => {
    expect(problem({ ...schemas[0], type: 12 }), "a schema with type 12 passed").toBeDefined();
  });
});
