// Prism's reader of documents (getHttpOperationsFromSpec: $RefParser's dereferencing, then http-spec's
// OpenAPI 3 transform, with fnv-plus for the ids it hashes) is never run in a browser: the handlers
// take Prism's operations as npm run generate wrote them (generated/msw-spec.json). CommonJS, as
// Prism requires both (`new $RefParser()`, `operation_1.transformOas3Operations(...)`).
const refuse = () => {
  throw new Error("documents are not read in a browser: the handlers take Prism's operations from generated/msw-spec.json");
};
class RefParser {
  dereference() {
    return Promise.reject(new Error("documents are not read in a browser: the handlers take Prism's operations from generated/msw-spec.json"));
  }
}
module.exports = RefParser;
module.exports.default = RefParser;
module.exports.transformOas3Operations = refuse;
