// Where the mock's control API lives: the prefix its document's paths share (/_mock/), generated
// from the document, so that no module types it. The control API's own paths are spelt once, in its
// document; code reaches them through the typed client (control-client.ts).
export { controlPrefix as CONTROL_PREFIX } from "../../generated/control-facts.js";
