// assert: a failed check throws, as Node's does.
export default function assert(value, message) {
  if (!value) throw new Error(message ?? "assertion failed");
}
assert.ok = assert;
export { assert as ok };
