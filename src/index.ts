// The package's main entry: the typed client and the webhook helpers. A browser app should import
// the client entry alone (src/client/index.ts), since the webhook receiver uses node:http.
export * from "./client/index.js";
export * from "./webhooks/index.js";
