// Spectral's example rules (oas3-valid-media-example, oas3-valid-schema-example) clone the schema
// beside each example before validating it, so AJV compiles a schema per place: a bundle inlines the
// same component schemas at hundreds of places (openapi.json: 1,371 compiles of 165 distinct
// schemas), which was most of a lint's time. Their function is kept; its findings are remembered by
// what they depend on and given again, at the new place, wherever the same schema and examples
// come back, in this document or the next one linted in the process.
import type { RulesetDefinition } from "@stoplight/spectral-core";

type Result = { message: string; path: Array<string | number> };
type RuleFunction = (targetVal: unknown, options: unknown, context: any) => Result[] | void | Promise<Result[] | void>;

/**
 * What oasExample's findings depend on besides the value it is given: the document's formats and
 * JSON Schema dialect (they choose the dialect), and whether the value sits in a request or a
 * response (readOnly properties are not required in a request, writeOnly ones in a response), which
 * the first segments of its path tell (`paths/{path}/{method}/requestBody`, `components/responses`).
 */
function placeKey(context: any): string {
  const { document, path } = context;
  const formats = [...(document.formats ?? [])].map((format: any) => format.displayName ?? format.name).sort();
  const place = path[0] === "paths" ? [path[0], path[3]] : [path[0], path[1]];
  return JSON.stringify([formats, document.data?.jsonSchemaDialect ?? null, place]);
}

const startsWith = (path: ReadonlyArray<string | number>, prefix: ReadonlyArray<string | number>) => prefix.every((segment, i) => path[i] === segment);

/** oasExample with its findings remembered; anything it cannot key exactly goes to the function itself. */
export function rememberExampleFindings(original: RuleFunction): RuleFunction {
  // Findings with paths relative to the value's place, by options, place and value.
  const remembered = new Map<string, Result[] | undefined>();
  return function rememberedExamples(targetVal, options, context) {
    const value = JSON.stringify(targetVal);
    // A schema with an $id is kept by the document's AJV under that id (a later schema with the same
    // id meets the first), so its findings can depend on the document's other schemas.
    if (value === undefined || value.includes('"$id"')) return original(targetVal, options, context);
    const key = `${JSON.stringify(options)}\n${placeKey(context)}\n${value}`;
    const at: Array<string | number> = context.path;
    if (!remembered.has(key)) {
      const results = original(targetVal, options, context);
      // The function is synchronous; a promise or a finding outside the value's place is passed on as it is.
      if (results instanceof Promise || (results ?? []).some((r) => !startsWith(r.path, at))) return results;
      remembered.set(key, results?.map((r) => ({ message: r.message, path: r.path.slice(at.length) })));
    }
    return remembered.get(key)?.map((r) => ({ message: r.message, path: [...at, ...r.path] }));
  };
}

/** A ruleset with the named rules' functions remembered; every other property of the rules is theirs. */
export function withRememberedExamples(ruleset: RulesetDefinition, names: string[]): RulesetDefinition {
  const rules: Record<string, any> = { ...(ruleset as any).rules };
  for (const name of names) {
    const rule = rules[name];
    if (!rule?.then?.function || Array.isArray(rule.then)) throw new Error(`Spectral's ${name} rule no longer has one function: update scripts/lint/remembered-examples.ts`);
    rules[name] = { ...rule, then: { ...rule.then, function: rememberExampleFindings(rule.then.function) } };
  }
  return { ...ruleset, rules } as RulesetDefinition;
}
