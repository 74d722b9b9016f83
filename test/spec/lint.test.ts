// The documents lint clean (Redocly's recommended rules plus the house rules; the AsyncAPI parser's
// validation, which is what `asyncapi validate` runs), and each check rejects planted problems.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { asyncapiValidate, jsonDocuments, REDOCLY_APIS, redoclyLint, spectralLint, type LintResult } from "../../scripts/lint.js";
import { SPECTRAL_TARGETS } from "../../scripts/lint/spectral.js";
import type { RulesetName } from "../../scripts/lint/rulesets.js";

/** An operation without its operationId, in a copy of the bundled read API given to redocly lint by path. */
function plantedOpenApi(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lint-planted-"));
  const file = path.join(dir, "openapi.json");
  const doc = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated/openapi.json"), "utf8"));
  delete doc.paths["/v1/leavetype/list"].get.operationId;
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

// One redocly process lints every API and the planted file (its start-up costs more than a lint).
// It is started first and read last: the in-process checks below run while it lints.
let redocly: Promise<Map<string, LintResult>>;
beforeAll(() => {
  const planted = plantedOpenApi();
  redocly = redoclyLint([...REDOCLY_APIS, planted])
    .then((results) => new Map<string, LintResult>([...REDOCLY_APIS.map((api, i) => [api, results[i]] as const), ["planted", results[REDOCLY_APIS.length]]]))
    .finally(() => fs.rmSync(path.dirname(planted), { recursive: true, force: true }));
  // Read by the tests at the end of the file; a failure is theirs to report.
  redocly.catch(() => undefined);
});

describe("lint", () => {
  it("redocly.yaml names the three APIs", () => {
    expect(REDOCLY_APIS).toEqual(["hr-api", "hr-events", "mock-control"]);
  });

  it("the AsyncAPI parser's validation (what asyncapi validate runs) passes with no warning", async () => {
    const result = await asyncapiValidate();
    expect(result.output, "asyncapi/asyncapi.yaml: the parser reported problems").toBe("");
    expect(result.ok).toBe(true);
  }, 120_000);
});

describe("redocly's report of several APIs (one JSON document after another) read back", () => {
  const cases: [string, { given: string; want: unknown[] }][] = [
    ["documents back to back", { given: '{"totals":{"errors":0}}{"totals":{"errors":2}}', want: [{ totals: { errors: 0 } }, { totals: { errors: 2 } }] }],
    ["braces and escaped quotes inside strings", { given: '{"message":"a \\"}{\\" b"}\n{"n":1}', want: [{ message: 'a "}{" b' }, { n: 1 }] }],
    ["text before and between them (a notice)", { given: 'Node 20 support is ending\n{"a":[{"b":{}}]}\nnotice\n{"c":null}\n', want: [{ a: [{ b: {} }] }, { c: null }] }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(jsonDocuments(given)).toEqual(want);
  });
});

/** A copy of the hand-written documents (their relative $refs included) with edits to the root document. */
function plantedAsyncApi(edits: Array<(root: string) => string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lint-planted-"));
  // The events document refers to shared schemas under openapi/, so both folders are copied.
  for (const folder of ["asyncapi", "openapi"]) fs.cpSync(path.join(repoRoot, folder), path.join(dir, folder), { recursive: true });
  const root = path.join(dir, "asyncapi", "asyncapi.yaml");
  const after = edits.reduce((before, edit) => {
    const edited = edit(before);
    if (edited === before) throw new Error("a planted edit changed nothing: the document moved on, update the case");
    return edited;
  }, fs.readFileSync(root, "utf8"));
  fs.writeFileSync(root, after);
  return root;
}

type AsyncApiCase = [string, { edit: (root: string) => string; want: RegExp }];

// A validation compiles the specification's JSON Schema twice (most of its time), so the problems that
// leave the document readable go into one copy, at different places, validated once: each must be
// named. An unknown version stops every other rule, so it goes alone.
const PLANTED: AsyncApiCase[][] = [
  [["an unknown version of the specification", { edit: (d) => d.replace("asyncapi: 3.0.0", "asyncapi: 3.0.9"), want: /^error .*3\.0\.9/m }]],
  [
    ["info without its required version", { edit: (d) => d.replace(/^  version: 1\.0\.0\n/m, ""), want: /^error .*"info" property must have required property "version"/m }],
    ["a $ref to a file that does not exist", { edit: (d) => d.replace("$ref: messages/leave.approved.yaml", "$ref: messages/leave.nothing.yaml"), want: /^error .*leave\.nothing\.yaml/m }],
    // The parser's recommended (warning) rules apply to AsyncAPI 2 only, so a 3.0 document meets errors alone.
    ["an operation sending a message its channel does not carry", { edit: (d) => d.replace('- $ref: "#/channels/webhookEndpoint/messages/employeeCreated"', '- $ref: "#/components/messages/employeeCreated"'), want: /^error asyncapi3-operation-messages-from-referred-channel/m }],
  ],
];

describe.each(PLANTED.map((cases) => [cases.map(([name]) => name).join("; "), cases] as const))("the AsyncAPI check rejects what asyncapi validate rejects, each problem planted in one copy: %s", (_names, cases) => {
  let result: LintResult;
  beforeAll(async () => {
    const file = plantedAsyncApi(cases.map(([, { edit }]) => edit));
    try {
      result = await asyncapiValidate(file);
    } finally {
      fs.rmSync(path.dirname(path.dirname(file)), { recursive: true, force: true });
    }
  });

  it.each(cases)("%s", (_name, { want }) => {
    expect(result.ok, "a planted problem passed the check").toBe(false);
    expect(result.output, `the problem is not named (want ${want})`).toMatch(want);
  });
});

describe("the bundled AsyncAPI document", () => {
  it("parses with @asyncapi/parser without errors (a bundle that left a relative $ref would not)", async () => {
    const { Parser } = await import("@asyncapi/parser");
    const fs = await import("node:fs");
    const { repoRoot } = await import("../../scripts/lib/spec-document.js");
    const text = fs.readFileSync(`${repoRoot}/generated/asyncapi.yaml`, "utf8");
    const { document, diagnostics } = await new Parser().parse(text);
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.message} at ${d.path.join(".")}`);
    expect(errors, "parser errors in generated/asyncapi.yaml").toEqual([]);
    expect(document, "the parser returned no document").toBeDefined();
    expect(document!.messages().length, "messages in the bundle").toBe(13);
  });
});

describe("Spectral (spectral:oas, spectral:asyncapi, OWASP) finds nothing above hint", () => {
  it.each(SPECTRAL_TARGETS.map((t) => [t.file, t.ruleset] as const))("%s with the %s ruleset", async (file, ruleset) => {
    const result = await spectralLint(file, ruleset);
    expect(result.output, `spectral reported findings on ${file}`).toBe("");
    expect(result.ok).toBe(true);
  });
});

/** A bundled document with one edit, written to a temporary file. */
function plantedBundle(file: string, edit: (doc: any) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spectral-planted-"));
  const doc = JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
  edit(doc);
  const out = path.join(dir, path.basename(file));
  fs.writeFileSync(out, JSON.stringify(doc));
  return out;
}

const SPECTRAL_PLANTED: Array<[string, { file: string; ruleset: RulesetName; edit: (doc: any) => void; want: RegExp }]> = [
  ["a string without maxLength (OWASP string-limit)", { file: "generated/openapi.json", ruleset: "read-api", edit: (d) => delete d.components.schemas.Envelope.properties.message.maxLength, want: /owasp:api4:2023-string-limit.*Envelope\/properties\/message/ }],
  ["an integer without maximum (OWASP integer-limit)", { file: "generated/openapi.json", ruleset: "read-api", edit: (d) => delete d.components.schemas.Page.properties.pageSize.maximum, want: /owasp:api4:2023-integer-limit/ }],
  ["an array without maxItems (OWASP array-limit)", { file: "generated/openapi.json", ruleset: "read-api", edit: (d) => delete d.components.schemas.LeaveType.properties.requiredDocument.maxItems, want: /owasp:api4:2023-array-limit/ }],
  ["a 200 without the RateLimit headers", { file: "generated/openapi.json", ruleset: "read-api", edit: (d) => delete d.paths["/v1/leavetype/list"].get.responses["200"].headers, want: /hr-rate-limit-headers.*leavetype/ }],
  ["an operation without operationId (spectral:oas)", { file: "generated/openapi.json", ruleset: "read-api", edit: (d) => delete d.paths["/v1/leavetype/list"].get.operationId, want: /operation-operationId/ }],
  ["an events contact without url or email (spectral:asyncapi)", { file: "generated/asyncapi.json", ruleset: "events", edit: (d) => (d.info.contact = { name: "x" }), want: /asyncapi-info-contact-properties/ }],
];

// The planted problems of one document and ruleset go into one copy, at different places, and
// Spectral runs once over it (a run over the read API takes seconds): each must be named.
const plantedGroups = [...new Set(SPECTRAL_PLANTED.map(([, c]) => `${c.file} ${c.ruleset}`))].map((key) => SPECTRAL_PLANTED.filter(([, c]) => `${c.file} ${c.ruleset}` === key));

describe.each(plantedGroups.map((cases) => [`${cases[0][1].file} (${cases[0][1].ruleset})`, cases] as const))("Spectral fails on each finding planted in %s", (_target, cases) => {
  let result: Awaited<ReturnType<typeof spectralLint>>;
  beforeAll(async () => {
    const { file, ruleset } = cases[0][1];
    const planted = plantedBundle(file, (doc) => {
      for (const [, { edit }] of cases) edit(doc);
    });
    try {
      result = await spectralLint(planted, ruleset);
    } finally {
      fs.rmSync(path.dirname(planted), { recursive: true, force: true });
    }
  });

  it.each(cases)("%s", (_name, { want }) => {
    expect(result.ok, "planted findings passed spectral").toBe(false);
    expect(result.output, `the planted finding is not named (want ${want})`).toMatch(want);
  });
});

// Last: redocly has been linting since the file started (beforeAll above).
describe("redocly lint", () => {
  it.each(REDOCLY_APIS.map((api) => [api]))("%s has no error and no warning", async (api) => {
    const result = (await redocly).get(api)!;
    expect(result.output, `redocly lint ${api} reported problems`).toBe("");
    expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: 0, warnings: 0 });
  }, 120_000);

  it("rejects a planted problem: an operation without its operationId, as a file given by path", async () => {
    const result = (await redocly).get("planted")!;
    expect(result.errors + result.warnings, "a planted problem passed redocly lint").toBeGreaterThan(0);
    expect(result.output).toMatch(/operation/i);
  }, 120_000);
});
