// The API console's form, read from the bundled OpenAPI document at build time: each operation's
// parameters as fields (a choice for an enum, required ones marked, the contract's example filled
// in). Pure; nothing here is typed twice: names, kinds, choices and examples are the spec's.
import { deref, isHttpMethod, type Json } from "../spec-locations.js";

export type FieldKind = "text" | "integer" | "boolean" | "choice" | "list";

export interface ConsoleField {
  name: string;
  in: "path" | "query";
  required: boolean;
  kind: FieldKind;
  /** A choice's values (an enum, or the enums of an anyOf, in the spec's order); a boolean's true/false. */
  choices: string[];
  /** What each choice is shown as: its value, with its x-enum-varnames name when the spec gives one ("1 (NewestFirst)"). */
  choiceLabels: string[];
  /** The contract's example, as the form writes it (a list's items joined by ", "). */
  example: string;
  description: string;
}

export interface ConsoleOperation {
  operationId: string;
  method: string;
  /** The path template as the spec writes it (/v1/department/{id}). */
  path: string;
  summary: string;
  permission: string | undefined;
  fields: ConsoleField[];
  /** The statuses the contract documents for it ("200", "400", …, "5XX"). */
  statuses: string[];
}

/** The enum values a schema allows (labelled), through $refs and anyOf/oneOf branches; none when any branch is open. */
function choicesOf(doc: Json, schema: Json): Array<[string, string]> | undefined {
  const node = deref(doc, schema) ?? {};
  const names: unknown[] = Array.isArray(node["x-enum-varnames"]) ? node["x-enum-varnames"] : [];
  if (Array.isArray(node.enum)) return node.enum.map((value: unknown, i: number) => [String(value), names[i] ? `${String(value)} (${String(names[i])})` : String(value)]);
  const branches = node.anyOf ?? node.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const all: Array<[string, string]> = [];
  for (const branch of branches) {
    const values = choicesOf(doc, branch);
    if (!values) return undefined;
    all.push(...values);
  }
  return all;
}

function kindOf(doc: Json, schema: Json): FieldKind {
  const node = deref(doc, schema) ?? {};
  if (choicesOf(doc, node)) return "choice";
  if (node.type === "array") return "list";
  if (node.type === "boolean") return "boolean";
  if (node.type === "integer") return "integer";
  return "text";
}

const written = (value: unknown) => (value === undefined ? "" : Array.isArray(value) ? value.map(String).join(", ") : String(value));

export function consoleOperations(doc: Json): ConsoleOperation[] {
  const operations: ConsoleOperation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    const pathItem = deref(doc, item) ?? {};
    for (const [method, operation] of Object.entries<Json>(pathItem)) {
      if (!isHttpMethod(method) || typeof operation.operationId !== "string") continue;
      const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter: Json) => deref(doc, parameter));
      const fields = parameters
        .filter((parameter: Json) => parameter.in === "path" || parameter.in === "query")
        .map((parameter: Json): ConsoleField => {
          const kind = kindOf(doc, parameter.schema);
          const schema = deref(doc, parameter.schema) ?? {};
          const choices = kind === "choice" ? choicesOf(doc, schema)! : kind === "boolean" ? [["true", "true"], ["false", "false"]] : [];
          return {
            name: String(parameter.name),
            in: parameter.in,
            required: parameter.required === true,
            kind,
            choices: choices.map(([value]) => value),
            choiceLabels: choices.map(([, label]) => label),
            example: written(parameter.example ?? schema.example),
            description: String(parameter.description ?? ""),
          };
        });
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: String(operation.summary ?? operation.operationId),
        permission: typeof operation["x-permission"] === "string" ? operation["x-permission"] : undefined,
        fields,
        statuses: Object.keys(operation.responses ?? {}),
      });
    }
  }
  return operations;
}
