// hr-service-mock: the mock in-process. `startMock({ port: 0 })` serves until `close()`; the
// composition root is mock/app/ (ARCHITECTURE: docs/guides/how-the-mock-is-built.md).
export * from "./app/start-mock.js";
export { startProxy, type RunningProxy, type StartProxyOptions, type ProxyReport, type ViolationEntry, type Recording } from "./app/start-proxy.js";
