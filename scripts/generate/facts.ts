// generated/facts.ts: the values code needs at run time that the OpenAPI document states once —
// every enum of components/schemas (with its x-enum-varnames), and every component parameter's
// name, default and bounds — so no module types them again.
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./types.js";

const BOUNDS = ["default", "minimum", "maximum", "maxItems", "maxLength"] as const;

export function renderFacts(openapi: BundledDocument): string {
  const lines: string[] = [GENERATED_BANNER.trimEnd(), 'import type { components } from "./api.js";', ""];
  for (const [name, schema] of Object.entries<Record<string, any>>(openapi.components?.schemas ?? {})) {
    if (!Array.isArray(schema.enum)) continue;
    lines.push(`/** The values of the ${name} enum, in the spec's order. */`);
    lines.push(`export const ${name}Values = ${JSON.stringify(schema.enum)} as const satisfies readonly components["schemas"]["${name}"][];`);
    if (Array.isArray(schema["x-enum-varnames"])) {
      lines.push(`/** ${name} values by their x-enum-varnames. */`);
      const entries = schema["x-enum-varnames"].map((varname: string, i: number) => `${JSON.stringify(varname)}: ${JSON.stringify(schema.enum[i])}`);
      lines.push(`export const ${name}ByName = { ${entries.join(", ")} } as const;`);
    }
    lines.push("");
  }
  const parameters: string[] = [];
  for (const [key, parameter] of Object.entries<Record<string, any>>(openapi.components?.parameters ?? {})) {
    const schema = parameter.schema ?? {};
    const facts = [`name: ${JSON.stringify(parameter.name)}`, `in: ${JSON.stringify(parameter.in)}`];
    for (const bound of BOUNDS) if (schema[bound] !== undefined) facts.push(`${bound}: ${JSON.stringify(schema[bound])}`);
    parameters.push(`  ${key}: { ${facts.join(", ")} },`);
  }
  lines.push("/** Each component parameter's name as sent, where it goes, and its default and bounds. */");
  lines.push(`export const parameters = {\n${parameters.join("\n")}\n} as const;`);
  return `${lines.join("\n")}\n`;
}
