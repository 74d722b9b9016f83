// Prism's reader converts OpenAPI 2 and Postman collections too; the handlers give it OpenAPI 3.1.
const refuse = (format) => () => {
  throw new Error(`${format} documents are not read in a browser: the handlers read the bundled OpenAPI 3.1 document`);
};
export const transformOas2Operations = refuse("OpenAPI 2");
export const transformPostmanCollectionOperations = refuse("Postman");
