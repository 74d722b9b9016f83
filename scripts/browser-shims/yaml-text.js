// json-schema-ref-parser (json-schema-faker's) reads YAML text when it resolves a $ref to a file; the
// handlers give Prism's generator schemas already bundled and never resolve one.
const refuse = (name) => () => {
  throw new Error(`js-yaml.${name} is not available in a browser: the handlers resolve no $ref to a YAML file`);
};
export const safeLoad = refuse("safeLoad");
export const safeDump = refuse("safeDump");
export const load = refuse("load");
export const dump = refuse("dump");
