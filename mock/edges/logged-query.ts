// What of a query string a log line may show (the mock's request lines, the proxy's): the values of
// the operation's own parameters, unless one looks like a key or a signing secret (the mock's own
// forms: a demo key, a sandbox key, whsec_); the value of any other parameter never, since a client
// that puts a token in a parameter the contract does not define must not find it in a log. Keys in
// headers never reach a line at all; the journal keeps what it keeps (it is readable by the world's keys).
import { DEMO_KEY_PREFIX, SANDBOX_KEY_PREFIX } from "../keys/demo-keys.js";
import type { SpecOperation } from "../kernel/spec.js";
import { SECRET_PREFIX } from "../kernel/text.js";
import { queryComponent, splitTarget } from "../../src/query.js";

/** What a hidden value is shown as. */
export const HIDDEN_VALUE = "…";

const SECRET_FORMS = [DEMO_KEY_PREFIX, SANDBOX_KEY_PREFIX, SECRET_PREFIX];

/** Whether a log line may show `value` of the query parameter `name` (both as they were sent, decoded). */
export function queryValueShown(operation: SpecOperation | undefined, name: string, value: string): boolean {
  if (!operation?.queryParamsByLowerName.has(name.toLowerCase())) return false;
  return !SECRET_FORMS.some((form) => value.includes(form));
}

/**
 * A request target as a line shows it (printable: ASCII, cut short), with each hidden query value
 * replaced by HIDDEN_VALUE; every other byte as it came (a target with nothing to hide is unchanged).
 */
export function maskedTarget(target: string, operation: SpecOperation | undefined): string {
  const { path, search } = splitTarget(target);
  if (search === "") return target;
  const pairs = search.split("&").map((pair) => {
    const equals = pair.indexOf("=");
    if (equals < 0) return pair;
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    return queryValueShown(operation, queryComponent(name), queryComponent(value)) && queryValueShown(operation, queryComponent(name), value) ? pair : `${name}=${HIDDEN_VALUE}`;
  });
  return `${path}?${pairs.join("&")}`;
}
