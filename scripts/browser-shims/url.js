// url and node:url on the WHATWG URL the browser has.
const NativeURL = globalThis.URL;
export { NativeURL as URL };
export const URLSearchParams = globalThis.URLSearchParams;
export function fileURLToPath(url) {
  return decodeURIComponent(new NativeURL(String(url)).pathname);
}
export function pathToFileURL(path) {
  return new NativeURL(`file://${encodeURI(path)}`);
}
export function resolve(from, to) {
  return new NativeURL(to, new NativeURL(from, "resolve://")).href.replace(/^resolve:\/\//, "");
}
export function parse(text) {
  const url = new NativeURL(text, "parse://local/");
  const local = url.protocol === "parse:";
  return {
    protocol: local ? null : url.protocol,
    host: local ? null : url.host,
    hostname: local ? null : url.hostname,
    port: url.port || null,
    pathname: url.pathname,
    search: url.search || null,
    query: url.search ? url.search.slice(1) : null,
    hash: url.hash || null,
    href: local ? text : url.href,
  };
}
export function format(parts) {
  if (typeof parts === "string") return parts;
  if (parts instanceof NativeURL) return parts.href;
  const auth = parts.protocol ? `${parts.protocol}//${parts.host ?? parts.hostname ?? ""}` : "";
  return `${auth}${parts.pathname ?? ""}${parts.search ?? ""}${parts.hash ?? ""}`;
}
export default { URL: NativeURL, URLSearchParams, fileURLToPath, pathToFileURL, resolve, parse, format };
