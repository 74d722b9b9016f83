// JSON whose repeated parts are written once: a value that occurs more than once (an object or an
// array, as its JSON text) is kept in a table and stands as { "$shared": index } wherever it occurs.
// Prism's dereferenced operations repeat the same schemas and examples in many operations (the
// envelope, the error answers); generated/msw-spec.json is written this way, and read back here
// into values that share those parts, as Prism's reader gives them.
const MARK = "$shared";

/** Repeated parts at least this long (as JSON text) are shared. */
const MIN_SHARED_CHARS = 64;

export interface SharedJson {
  shared: unknown[];
  value: unknown;
}

/** `value` with its repeated objects and arrays written once. */
export function shareRepeats(value: unknown): SharedJson {
  const counts = new Map<string, number>();
  const count = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    if (!Array.isArray(node) && Object.keys(node).length === 1 && MARK in node) throw new Error(`an object whose only key is ${MARK} cannot be written with shared parts`);
    const text = JSON.stringify(node);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    for (const child of Array.isArray(node) ? node : Object.values(node)) count(child);
  };
  count(value);
  const index = new Map<string, number>();
  const shared: unknown[] = [];
  const encode = (node: unknown): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const text = JSON.stringify(node);
    if (text.length >= MIN_SHARED_CHARS && (counts.get(text) ?? 0) > 1) {
      let at = index.get(text);
      if (at === undefined) {
        at = shared.length;
        index.set(text, at);
        shared.push(undefined);
        shared[at] = inner(node);
      }
      return { [MARK]: at };
    }
    return inner(node);
  };
  const inner = (node: object): unknown => (Array.isArray(node) ? node.map(encode) : Object.fromEntries(Object.entries(node).map(([key, child]) => [key, encode(child)])));
  return { shared, value: encode(value) };
}

/** The value shareRepeats wrote, each repeated part one object wherever it occurs. */
export function expandShared<T>({ shared, value }: SharedJson): T {
  const made: unknown[] = [];
  const decode = (node: unknown): unknown => {
    if (typeof node !== "object" || node === null) return node;
    if (Array.isArray(node)) return node.map(decode);
    const keys = Object.keys(node);
    if (keys.length === 1 && keys[0] === MARK) {
      const at = (node as Record<string, number>)[MARK];
      if (!(at in made)) made[at] = decode(shared[at]);
      return made[at];
    }
    return Object.fromEntries(keys.map((key) => [key, decode((node as Record<string, unknown>)[key])]));
  };
  return decode(value) as T;
}
