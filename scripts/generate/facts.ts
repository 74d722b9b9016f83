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
  const named = new Set<string>();
  for (const item of Object.values<Record<string, any>>(openapi.paths ?? {})) for (const op of Object.values<any>(item)) if (typeof op?.["x-permission"] === "string") named.add(op["x-permission"]);
  const key = (name: string) => name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join("");
  lines.push("/** The permissions the operations name in x-permission. */");
  lines.push(`export const permissions = {\n${[...named].map((name) => `  ${key(name)}: ${JSON.stringify(name)},`).join("\n")}\n} as const;`);
  lines.push("");
  lines.push("/** Each component parameter's name as sent, where it goes, and its default and bounds. */");
  lines.push(`export const parameters = {\n${parameters.join("\n")}\n} as const;`);
  return `${lines.join("\n")}\n`;
}

/** generated/webhook-facts.ts: the delivery's header names and the delivery rules the AsyncAPI document states once. */
export function renderWebhookFacts(asyncapi: BundledDocument): string {
  const traits = Object.values<Record<string, any>>(asyncapi.components?.messageTraits ?? {});
  // A trait's headers are the WebhookHeaders component, by reference.
  const resolve = (schema: any) => (typeof schema?.$ref === "string" ? asyncapi.components?.schemas?.[schema.$ref.split("/").pop()] : schema);
  const names = traits.flatMap((trait) => Object.keys(resolve(trait.headers)?.properties ?? {}));
  if (names.length === 0) throw new Error("the AsyncAPI document's message traits name no headers");
  const operations = Object.values<Record<string, any>>(asyncapi.operations ?? {});
  const rules = operations.find((op) => op["x-signature-tolerance-seconds"] !== undefined);
  if (!rules) throw new Error("no AsyncAPI operation carries the delivery rules (x-signature-tolerance-seconds and the others)");
  const camel = (text: string) => text.replace(/^x-/, "").replace(/-([a-z])/gi, (_m, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
  const headerLines = [...new Set(names)].map((name) => `  ${camel(name)}: ${JSON.stringify(name)},`);
  const ruleLines = Object.entries(rules)
    .filter(([key]) => key.startsWith("x-") && key !== "x-assumption" && key !== "x-permission")
    .map(([key, value]) => `  ${camel(key)}: ${JSON.stringify(value)},`);
  return [
    GENERATED_BANNER.trimEnd(),
    "",
    "/** The headers of every delivery, by name (the message trait's headers). */",
    `export const webhookHeaders = {\n${headerLines.join("\n")}\n} as const;`,
    "",
    "/** The permission adding webhook endpoints needs (the send operation's x-permission). */",
    `export const webhookPermission = ${JSON.stringify(rules["x-permission"])};`,
    "",
    "/** The delivery rules of the send operation's x- extensions. */",
    `export const deliveryRules = {\n${ruleLines.join("\n")}\n} as const;`,
    "",
  ].join("\n");
}
