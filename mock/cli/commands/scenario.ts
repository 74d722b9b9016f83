/**
 * `hr-mock scenario FILE`: runs the triggers of a scenario file in order, with its waits, against a
 * running mock's control API, as `hr-mock trigger` sends one. The whole file is checked first (one
 * line per problem with its place, exit 2, nothing sent); the run stops at the first step the mock
 * refuses, with one line naming the step (exit 1).
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { Placed, ScenarioStep, TriggerStep } from "../../scenarios/scenario-file.js";
import type { TriggerResult } from "../../webhooks/publisher.js";
import { command, DEFAULT_MOCK_URL, MOCK_TARGET_FLAGS, mockTarget, usage, UsageError, type MockTarget, type RunIO } from "../command.js";
import { quoted } from "../../kernel/parse-error.js";
import { describeQueued, postTrigger } from "./trigger.js";

export const SCENARIO_HELP = `Usage: hr-mock scenario <file> [options]

Runs the triggers of a scenario file (YAML or JSON) in order against a running mock, as
hr-mock trigger sends one, waiting where the file says. The file is checked whole before
anything is sent; the run stops at the first step the mock refuses.

  steps:
    - trigger: leave.requested        # an event type
      name: asked                     # optional: later steps may use $asked.<field>
      id: <uuid>                      # optional: the record, as hr-mock trigger --id
      set: { comments: Conference }   # optional: overrides, as hr-mock trigger --set
    - wait: 500                       # milliseconds
    - trigger: leave.approved
      id: $asked.leaveRequestId       # a field of an earlier step's event data

The file's JSON Schema is hr-service-mock/scenario.schema.json (for editors: $schema).

Options:
  --mock-url <url>   The running mock (default ${DEFAULT_MOCK_URL}).
  --api-key <key>    A key holding Manage Webhooks (as hr-mock trigger).
  --json             Print the mock's answers (events and deliveries) as one JSON array.
  -h, --help         Show this help.

Exit status: 0 every step ran, 1 the mock refused a step or could not be reached,
2 bad input (the file or a flag).
`;

const SCENARIO_FLAGS = { ...MOCK_TARGET_FLAGS, json: { type: "boolean", default: false } } as const;

/** What a test may add: a wait of the given milliseconds that does not wait. */
type ScenarioIO = { wait?: (ms: number) => Promise<unknown> };

/** Exit status 0, 1 (the mock refused a step or could not be reached), or 2 for a bad file (one line per problem); a bad flag throws a UsageError. */
export const scenarioCommand = command<typeof SCENARIO_FLAGS, ScenarioIO>({ name: "scenario", flags: SCENARIO_FLAGS, help: SCENARIO_HELP, positionals: true }, async ({ values, positionals }, io) => {
  if (positionals.length !== 1) throw usage("scenario", `one scenario file is required, got ${positionals.length === 0 ? "none" : positionals.map((p) => quoted(p)).join(" ")}`);
  const file = positionals[0];
  const target = mockTarget("scenario", values["mock-url"], values["api-key"]);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the scenario file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // The file's schema (Ajv) and YAML reader are loaded to check a file, never for --help.
  const { checkScenario, referenceOf } = await import("../../scenarios/scenario-file.js");
  const checked = checkScenario(text, file);
  if (!checked.ok) {
    for (const problem of checked.problems) io.stderr.write(`hr-mock scenario: ${problem}\n`);
    return 2;
  }
  return runSteps(checked.steps, target, referenceOf, { ...io, wait: io.wait ?? sleep, json: values.json ?? false, file });
});

async function runSteps(
  steps: Placed<ScenarioStep>[],
  target: MockTarget,
  referenceOf: (id: string | undefined) => { name: string; field: string } | undefined,
  io: RunIO<Required<ScenarioIO>> & { json: boolean; file: string },
): Promise<number> {
  const data = new Map<string, Record<string, unknown>>();
  const results: TriggerResult[] = [];
  for (const { step, index, line } of steps) {
    if ("wait" in step) {
      await io.wait(step.wait);
      continue;
    }
    const trigger = step as TriggerStep;
    const reference = referenceOf(trigger.id);
    // Checked with the file: the name is bound by an earlier step that ran.
    const id = reference ? String(data.get(reference.name)?.[reference.field]) : trigger.id;
    const answer = await postTrigger(target, { type: trigger.trigger, ...(id === undefined ? {} : { id }), ...(trigger.set === undefined ? {} : { set: trigger.set }) }, io.fetch);
    if (!answer.ok) {
      io.stderr.write(`hr-mock scenario: ${io.file}:${line}: steps[${index}] (${trigger.trigger}${trigger.name ? ` ${trigger.name}` : ""}) stopped the run: ${answer.line}\n`);
      if (io.json) io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      return 1;
    }
    if (trigger.name !== undefined) data.set(trigger.name, answer.data.event.data as Record<string, unknown>);
    results.push(answer.data);
    if (!io.json) io.stdout.write(`steps[${index}]: ${describeQueued(answer.data)}`);
  }
  if (io.json) io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return 0;
}
