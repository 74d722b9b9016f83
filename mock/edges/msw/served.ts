// Which operations the MSW handlers serve: the read API's, and the control API's sandboxes, scripted
// faults and journal (their tags in the control document). The webhook operations need a server that
// sends deliveries, so they are not served. npm run generate reads this too: generated/msw-spec.json
// holds what these operations need and nothing of the others.
import { routes } from "../../../generated/routes.js";

const SERVED_TAGS: ReadonlySet<string> = new Set(["Sandboxes", "Faults", "Journal"]);

/** The routes the handlers serve, in the documents' order. */
export const SERVED = routes.filter((route) => route.api === "read" || route.tags.some((tag) => SERVED_TAGS.has(tag)));

/** The operationIds of SERVED. */
export const SERVED_IDS: ReadonlySet<string> = new Set(SERVED.map((route) => route.operationId));
