// util: the few functions the libraries take when their modules load or format a message.
const custom = Symbol.for("nodejs.util.inspect.custom");
export function inspect(value) {
  try {
    return typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    return String(value);
  }
}
inspect.custom = custom;
export function format(first, ...args) {
  if (typeof first !== "string") return [first, ...args].map(inspect).join(" ");
  let i = 0;
  const text = first.replace(/%[sdifjoO%]/g, (token) => (token === "%%" ? "%" : i < args.length ? inspect(args[i++]) : token));
  return [text, ...args.slice(i).map(inspect)].join(" ");
}
export function inherits(child, parent) {
  Object.setPrototypeOf(child.prototype, parent.prototype);
  Object.setPrototypeOf(child, parent);
}
export const deprecate = (fn) => fn;
export const promisify = (fn) => (...args) => new Promise((resolve, reject) => fn(...args, (error, value) => (error ? reject(error) : resolve(value))));
export const isDeepStrictEqual = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export const TextEncoder = globalThis.TextEncoder;
export const TextDecoder = globalThis.TextDecoder;
export const types = {};
export default { inspect, format, inherits, deprecate, promisify, isDeepStrictEqual, TextEncoder, TextDecoder, types };
