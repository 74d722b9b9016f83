// What of a request the proxy may print: never the key (every Authorization value and the
// credential inside it are cut out of any text, wherever an upstream may echo them), never a
// signing secret, and of the query what logged-query.ts allows (a client that puts a token in an
// unknown parameter does not see it in a CI log).
import { maskSecrets, printable } from "../../kernel/text.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { HIDDEN_VALUE, queryValueShown } from "../logged-query.js";
import { splitTarget } from "../../../src/query.js";

const SHOWN = "[redacted]";

/** A function that cuts the request's credentials and any signing secret out of a text. */
export function createRedactor(authorizations: readonly string[]): (text: string) => string {
  const secrets = new Set<string>();
  for (const value of authorizations) {
    const trimmed = value.trim();
    if (trimmed.length >= 4) secrets.add(trimmed);
    const credential = trimmed.split(/\s+/).slice(1).join(" ");
    if (credential.length >= 4) secrets.add(credential);
  }
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of ordered) out = out.split(secret).join(SHOWN);
    return maskSecrets(out);
  };
}

/** Path and query for a line: the operation's parameters with their values, any other name (or a value like a key) with "…". */
export function redactedTarget(url: string, operation: SpecOperation | undefined): string {
  const target = splitTarget(url);
  const path = printable(target.path, 200);
  const pairs = [...new URLSearchParams(target.search)].map(([name, value]) =>
    queryValueShown(operation, name, value) ? `${printable(name, 40)}=${printable(value, 60)}` : `${printable(name, 40)}=${HIDDEN_VALUE}`,
  );
  return pairs.length ? `${path}?${pairs.join("&")}` : path;
}
