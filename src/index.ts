// The package's main entry: the typed client and the Web Crypto webhook helpers, both free of Node
// built-ins. The node:http receiver and the synchronous node:crypto verifier are in
// "hr-service-contract/webhooks/node".
export * from "./client/index.js";
export * from "./webhooks/index.js";
