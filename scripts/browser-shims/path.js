// path: POSIX joining for the URLs and names the libraries build (no file is read).
function normalize(path) {
  const absolute = path.startsWith("/");
  const out = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `${absolute ? "/" : ""}${out.join("/")}` || (absolute ? "/" : ".");
}
export const sep = "/";
export const delimiter = ":";
export const join = (...parts) => normalize(parts.filter(Boolean).join("/"));
export const resolve = (...parts) => {
  let path = "";
  for (const part of parts) path = part.startsWith("/") ? part : `${path}/${part}`;
  return normalize(path.startsWith("/") ? path : `/${path}`);
};
export const dirname = (path) => normalize(path.replace(/\/[^/]*\/?$/, "") || (path.startsWith("/") ? "/" : "."));
export const basename = (path, ext) => {
  const base = path.replace(/\/+$/, "").split("/").pop() ?? "";
  return ext && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
};
export const extname = (path) => /(\.[^./]*)$/.exec(basename(path))?.[1] ?? "";
export const isAbsolute = (path) => path.startsWith("/");
export const relative = (from, to) => to;
const path = { sep, delimiter, join, resolve, dirname, basename, extname, isAbsolute, relative, normalize };
path.posix = path;
export { normalize };
export const posix = path;
export default path;
