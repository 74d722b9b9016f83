// Where the mock's control API lives: the first segment its document's paths share (/_mock/),
// read from the generated routes, so that no module types it. The control API's own paths are
// spelt once, in its document; code reaches them through the typed client (control-client.ts).
import { routes } from "../../generated/routes.js";

function sharedPrefix(): string {
  const prefixes = new Set(routes.filter((r) => r.api === "control").map((r) => `/${r.path.split("/")[1]}/`));
  if (prefixes.size !== 1) throw new Error(`the control API's paths should share one first segment, found ${[...prefixes].join(", ")}`);
  return [...prefixes][0];
}

/** The path under which every operation of the control API lives ("/_mock/"). */
export const CONTROL_PREFIX = sharedPrefix();
