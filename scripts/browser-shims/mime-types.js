// mime-types reads mime-db (a 134 KB table) to name a media type from a file extension. In the
// handlers' path only type-is and accepts require it, and they look a type up only when given an
// extension ("json") rather than a media type; Prism gives them media types ("application/json").
const refuse = (name) => () => {
  throw new Error(`mime-types.${name} is not available in a browser: the handlers match full media types only`);
};
export const lookup = refuse("lookup");
export const contentType = refuse("contentType");
export const extension = refuse("extension");
export const charset = refuse("charset");
export const charsets = { lookup: charset };
export const extensions = {};
export const types = {};
