// The browser build's faker 6 (Prism's, for `Prefer: dynamic=true`) holds only the English
// definitions of PRISM_FAKER_DEFINITIONS (scripts/lib/msw-bundle.ts): every `x-faker` hint of both
// documents, and Prism's own hint for parameters, gives the same values with them as with the whole
// English locale, seed by seed. A hint that reached a definition left out would throw or differ.
import { createRequire, Module } from "node:module";
import path from "node:path";
import { compileFunction } from "node:vm";
import { describe, expect, it } from "vitest";
import openapi from "../../generated/openapi.json" with { type: "json" };
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { prismFakerEnglishSource } from "../../scripts/lib/msw-bundle.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

type Faker6 = { seed(seed: number): void } & Record<string, Record<string, (...args: unknown[]) => unknown>>;

const fromPrism = createRequire(createRequire(path.join(repoRoot, "package.json")).resolve("@stoplight/prism-http"));
const fakerRoot = path.dirname(fromPrism.resolve("@faker-js/faker/package.json"));
const requireFaker = createRequire(path.join(fakerRoot, "dist", "cjs", "locales", "en", "index.js"));
const { Faker } = requireFaker("../../faker") as { Faker: new (options: object) => Faker6 };

/** The English definitions as the browser build's module gives them. */
function trimmedEnglish(): object {
  const module = new Module("prism-faker-english");
  compileFunction(prismFakerEnglishSource(), ["require", "module"])(requireFaker, module);
  return (module.exports as { default: object }).default;
}

const whole = requireFaker("../../locale/en") as Faker6;
const trimmed = new Faker({ locale: "en", localeFallback: "en", locales: { en: trimmedEnglish() } });

/** Every x-faker hint of a document, as json-schema-faker reads it: "module.method", or { "module.method" or "fake": argument(s) }. */
function hints(node: unknown, found: unknown[] = []): unknown[] {
  if (typeof node !== "object" || node === null) return found;
  for (const [key, value] of Object.entries(node)) {
    if (key === "x-faker") found.push(value);
    else hints(value, found);
  }
  return found;
}

function call(faker: Faker6, hint: unknown): unknown {
  const [name, args] = typeof hint === "string" ? [hint, []] : Object.entries(hint as object)[0]!;
  const given = Array.isArray(args) ? args : [args];
  // "fake" is faker's own method; the others are a module's.
  const [module, method] = name.split(".");
  return method === undefined ? (faker as unknown as Record<string, (...a: unknown[]) => unknown>)[module]!(...given) : faker[module]![method]!(...given);
}

// random.words draws each word from one of many modules' lists (system.commonFileName calls it): twenty at a time, every list is reached.
const all = [...new Map([...hints(openapi), ...hints(controlDocument), "lorem.word", { "random.words": 20 }].map((hint) => [JSON.stringify(hint), hint])).values()];

describe("faker 6's English definitions in the browser build", () => {
  it("the documents have hints to check, and the module is faker's own English", () => {
    expect(all.length, "distinct x-faker hints").toBeGreaterThan(10);
    expect(all.map((hint) => JSON.stringify(hint))).toContainEqual(JSON.stringify({ "system.commonFileName": "pdf" }));
  });

  it.each(all.map((hint) => [JSON.stringify(hint), hint]))("%s gives the whole locale's values, seed by seed", (_name, hint) => {
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    const run = (faker: Faker6) => seeds.map((seed) => (faker.seed(seed), call(faker, hint)));
    expect(run(trimmed)).toEqual(run(whole));
  });
});
