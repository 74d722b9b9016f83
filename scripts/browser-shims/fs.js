// fs and node:fs/promises: a browser reads no files (the spec comes as data).
const refuse = (name) => () => {
  throw new Error(`fs.${name} is not available in a browser`);
};
export const readFile = (path) => Promise.reject(new Error(`cannot read ${path}: no file system in a browser`));
export const readFileSync = refuse("readFileSync");
export const existsSync = () => false;
export const promises = { readFile };
export default { readFile, readFileSync, existsSync, promises };
