// Evaluators for the package's bound marks: the maxLength, minimum and maximum, and maxItems the
// provider does not give (each an x-assumption saying so). A bound held when every value the run saw
// at that place validates against the schema that carries it.
import type { Exchange } from "./exchange.js";
import { couldNotTell, didNotHold, held, type Verdict } from "./results.js";

/** A mark is a bound mark when its sentence names the bound keyword it explains. */
export const isBoundMark = (sentence: string) => /\b(maxLength|maxItems|minimum and maximum)\b/.test(sentence);

/** The values under a property name anywhere in a JSON value (items of an `items` pointer flattened). */
function valuesNamed(body: unknown, name: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(body)) for (const item of body) valuesNamed(item, name, out);
  else if (body && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) {
      if (key === name) out.push(value);
      valuesNamed(value, name, out);
    }
  }
  return out;
}

/** The evaluator of one bound mark, by the pointer of the schema that carries the bound. */
export function boundVerdict(pointer: string, validate: (pointer: string, value: unknown) => string[]) {
  const parts = pointer.split("/");
  return (obs: { exchanges: readonly Exchange[] }): Verdict => {
    if (parts[2] === "parameters") return couldNotTell("a bound on a request parameter: the suite sends values inside it and never probes past it");
    let seen: unknown[];
    if (parts[2] === "headers") {
      const name = parts[3].toLowerCase();
      seen = obs.exchanges.map((e) => e.headers[name]).filter((v) => v !== undefined).map(Number);
    } else {
      const items = parts.at(-1) === "items";
      const name = items ? parts.at(-2)! : parts.at(-1)!;
      // The failure envelope's fields share their names with the success envelope's: each is read from its own kind of answer.
      const failure = pointer.includes("/FailureEnvelope/");
      const answers = obs.exchanges.filter((e) => ((e.body as { isSuccessful?: unknown } | undefined)?.isSuccessful === false) === failure);
      seen = answers.flatMap((e) => valuesNamed(e.body, name));
      if (items) seen = seen.flatMap((v) => (Array.isArray(v) ? v : []));
    }
    if (seen.length === 0) return couldNotTell("no value was seen there");
    for (const value of seen) {
      const errors = validate(pointer, value);
      if (errors.length) return didNotHold(`${JSON.stringify(value).slice(0, 60)}: ${errors[0]}`);
    }
    return held(`${seen.length} value(s) seen, all within the bound`);
  };
}
