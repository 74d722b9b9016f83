// A console request as the reader filled it in: its URL, and the same request written as curl and as
// a call of the typed client (hr-service-contract/client). Pure, shared by the docs build and the
// console in the page, so the copied request is the one sent.
import type { ConsoleField, ConsoleOperation } from "./operations.js";

/** The form's values by field name; an empty value is not sent. */
export type FieldValues = Record<string, string>;

/** A list field's items: the form takes them separated by commas or white space. */
const itemsOf = (value: string) => value.split(/[\s,]+/).filter(Boolean);

const sent = (operation: ConsoleOperation, values: FieldValues) => operation.fields.filter((field) => (values[field.name] ?? "").trim() !== "");

/** The request's URL under `baseUrl` (no trailing slash): path parameters filled, the query in the fields' order, a list's items repeated. */
export function requestUrl(operation: ConsoleOperation, values: FieldValues, baseUrl: string): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent((values[name] ?? "").trim()));
  const query = new URLSearchParams();
  for (const field of sent(operation, values).filter((f) => f.in === "query")) {
    for (const item of field.kind === "list" ? itemsOf(values[field.name]!) : [values[field.name]!.trim()]) query.append(field.name, item);
  }
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, "")}${path}${search ? `?${search}` : ""}`;
}

const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlOf(operation: ConsoleOperation, values: FieldValues, key: string, baseUrl: string): string {
  const lines = [`curl ${operation.method === "GET" ? "" : `-X ${operation.method} `}${shellQuoted(requestUrl(operation, values, baseUrl))}`];
  if (key !== "") lines.push(`  -H ${shellQuoted(`Authorization: Bearer ${key}`)}`);
  return lines.join(" \\\n");
}

/** A field's value as the client takes it: a number for an integer, a boolean, a list's array; as typed when it is none of them (the answer says why). */
function clientValue(field: ConsoleField, value: string): unknown {
  const text = value.trim();
  if (field.kind === "list") return itemsOf(text);
  if (field.kind === "boolean" && (text === "true" || text === "false")) return text === "true";
  const whole = /^-?\d+$/.test(text);
  if (whole && (field.kind === "integer" || (field.kind === "choice" && field.choices.includes(text)))) return Number(text);
  return text;
}

export function clientCallOf(operation: ConsoleOperation, values: FieldValues, key: string, baseUrl: string): string {
  const fields = sent(operation, values);
  const args = fields.filter((field) => field.in === "path").map((field) => JSON.stringify(values[field.name]!.trim()));
  const query = fields.filter((field) => field.in === "query").map((field) => `${/^[A-Za-z_$][\w$]*$/.test(field.name) ? field.name : JSON.stringify(field.name)}: ${JSON.stringify(clientValue(field, values[field.name]!))}`);
  if (query.length) args.push(`{ ${query.join(", ")} }`);
  return [
    `import { createClient } from "hr-service-contract/client";`,
    ``,
    `const hr = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(key)} });`,
    `const data = await hr.${operation.operationId}(${args.join(", ")});`,
  ].join("\n");
}
