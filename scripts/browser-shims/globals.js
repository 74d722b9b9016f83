// The Node globals the libraries read: process (platform, env, cwd) and Buffer (the buffer package).
export { Buffer } from "buffer";
export const process = {
  browser: true,
  platform: "browser",
  env: {},
  argv: [],
  version: "",
  versions: {},
  cwd: () => "/",
  nextTick: (callback, ...args) => queueMicrotask(() => callback(...args)),
  emitWarning: () => {},
};
