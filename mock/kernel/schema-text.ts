// Turns a parameter's JSON Schema into the words a failure message uses ("an integer from 1 to
// 100"), so messages follow the spec instead of restating it.

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  minItems?: number;
  pattern?: string;
  description?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  [key: string]: unknown;
}

// int32 and int64 formats make Prism add the format's range; a bound that large says nothing useful.
const MEANINGLESS_BOUND = 2 ** 31 - 1;

const FORMAT_WORDS: Record<string, string> = {
  uuid: "a uuid",
  date: "a date written YYYY-MM-DD",
  "date-time": "a date and time (RFC 3339)",
  email: "an email address",
  uri: "a URI",
};

export function describeSchema(schema: JsonSchema): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return alternatives.map(describeSchema).join(", or ");
  if (schema.enum) return `one of ${schema.enum.map(String).join(", ")}`;
  if (schema.const !== undefined) return `exactly ${String(schema.const)}`;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return describeNumber(type === "integer" ? "an integer" : "a number", schema);
    case "boolean":
      return "true or false";
    case "array": {
      const each = schema.items ? describeSchema(schema.items) : "a value";
      const most = schema.maxItems !== undefined ? `at most ${schema.maxItems} values` : "one or more values";
      return `${most} (repeat the parameter), each ${each}`;
    }
    case "string":
    default: {
      if (schema.format && FORMAT_WORDS[schema.format]) return FORMAT_WORDS[schema.format];
      if (schema.pattern && schema.description) return lowerFirst(schema.description.replace(/\.$/, ""));
      if (schema.pattern) return `text matching ${schema.pattern}`;
      if (schema.maxLength !== undefined) return `text of at most ${schema.maxLength} characters`;
      return "text";
    }
  }
}

function describeNumber(noun: string, schema: JsonSchema): string {
  const min = schema.minimum;
  const max = schema.maximum !== undefined && schema.maximum < MEANINGLESS_BOUND ? schema.maximum : undefined;
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

/** `["events", "0"]` as `events[0]`: a field of a body as a message names it. */
export function fieldName(path: readonly (string | number)[]): string {
  return path.reduce<string>((name, part) => (/^\d+$/.test(String(part)) ? `${name}[${part}]` : name ? `${name}.${part}` : String(part)), "");
}

/** A sentence's first letter in lower case, to follow other words ("Must be" → "must be"; an acronym stays). */
export function lowerFirst(text: string): string {
  return /^[A-Z](?![A-Z])/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}
