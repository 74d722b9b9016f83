// node-fetch and the proxy agents: Prism's forwarder (proxy mode) and its OpenAPI callbacks call
// them; the handlers never forward, and the read API's document declares no callbacks. CommonJS,
// because Prism calls what require() gives (`createHttpProxyAgent(...)`, `node_fetch_1.default(...)`).
const refuse = () => {
  throw new Error("outgoing requests are not made in a browser: the mock never forwards a request nor calls a callback");
};
module.exports = refuse;
module.exports.default = refuse;
