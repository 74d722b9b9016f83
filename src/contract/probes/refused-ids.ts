// The ids a details operation must refuse (service-api.md 4.6): an unknown id, another
// organisation's id (when the ids file gives one), and an id that is not a UUID.
import { probe } from "../observations.js";
import type { Run } from "../run.js";
import { checkRefused } from "../checks/responses.js";

export async function checkRefusedIds(run: Run, op: "getDepartment" | "getLeaveRequest", unknownId: string, foreign: string | undefined, what: string): Promise<void> {
  const unknown = await run.call(op, { id: unknownId, probe: probe.unknownId(op) });
  run.record("details", `${op} with an unknown id is a failure`, checkRefused(unknown, `an unknown ${what} id`));
  if (foreign) {
    const answer = await run.call(op, { id: foreign, probe: probe.foreignId(op) });
    run.record("details", `${op} with another organisation's id is a failure`, checkRefused(answer, `another organisation's ${what}`));
  }
  await run.call(op, { id: "not-a-uuid", probe: probe.badUuid(op), parameters: ["id"] });
}
