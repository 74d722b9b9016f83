// A scenario file (YAML or JSON): triggers in order with optional waits, checked whole before any
// step runs against generated/scenario.schema.json (built from the control API's trigger body) and
// for what a schema cannot say (a `$name.field` reference to a step that is not earlier, or to a
// field its event's data does not have). Problems come back one per line with their place.
import { readFileSync } from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import type { WebhookEventType } from "../../generated/events.js";
import { compileSchema, eventDataFields } from "../kernel/json-schema.js";

const SCHEMA_PATH = new URL("../../generated/scenario.schema.json", import.meta.url);

export interface TriggerStep {
  trigger: WebhookEventType;
  name?: string;
  /** A uuid, or `$name.field` of an earlier step's event data. */
  id?: string;
  set?: Record<string, unknown>;
}
export interface WaitStep {
  wait: number;
}
export type ScenarioStep = TriggerStep | WaitStep;

/** A step's place for messages: its index and, in a file, its line. */
export interface Placed<T> {
  step: T;
  index: number;
  line: number;
}

export type ScenarioCheck = { ok: true; steps: Placed<ScenarioStep>[] } | { ok: false; problems: string[] };

let validators: Record<"file" | "trigger" | "wait", ReturnType<typeof compileSchema>> | undefined;
function compiled() {
  if (validators) return validators;
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, any>;
  // The file's frame first, then each step against the kind it is: one clear error per step.
  const frame = { ...schema, properties: { ...schema.properties, steps: { type: "array", minItems: 1, items: { type: "object" } } } };
  validators = {
    file: compileSchema(frame),
    trigger: compileSchema({ $defs: schema.$defs, $ref: "#/$defs/TriggerStep" }),
    wait: compileSchema({ $defs: schema.$defs, $ref: "#/$defs/WaitStep" }),
  };
  return validators;
}

const REFERENCE = /^\$([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z][A-Za-z0-9]*)$/;

/** The reference `$name.field` of an id, or undefined for a plain id. */
export function referenceOf(id: string | undefined): { name: string; field: string } | undefined {
  const match = id === undefined ? null : REFERENCE.exec(id);
  return match ? { name: match[1], field: match[2] } : undefined;
}

/** Parses and checks a scenario's text; `file` names it in the problems. */
export function checkScenario(text: string, file: string): ScenarioCheck {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => `${file}:${lines.linePos(e.pos[0]).line}: not valid YAML or JSON: ${e.message.split("\n")[0]}`) };
  }
  const value = doc.toJS() as unknown;
  const lineOf = (path: (string | number)[]): number => {
    for (let p = path; p.length >= 0; p = p.slice(0, -1)) {
      const node = doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
      if (p.length === 0) break;
    }
    return 1;
  };
  const v = compiled();
  const problems: string[] = [];
  const say = (path: (string | number)[], what: string) => problems.push(`${file}:${lineOf(path)}: ${placeName(path)}: ${what}`);
  if (!v.file(value)) {
    for (const e of v.file.errors ?? []) say(pathOf(e.instancePath, e), messageOf(e));
    return { ok: false, problems };
  }
  const steps = (value as { steps: Record<string, unknown>[] }).steps;
  const names = new Map<string, WebhookEventType>();
  const placed: Placed<ScenarioStep>[] = [];
  steps.forEach((step, index) => {
    const at: (string | number)[] = ["steps", index];
    const validate = "wait" in step && !("trigger" in step) ? v.wait : v.trigger;
    if (!validate(step)) {
      // The if/then parts repeat their `then` errors as "must match then schema": the field's error says it.
      const errors = (validate.errors ?? []).filter((e) => e.keyword !== "if" && !(e.keyword === "anyOf" && (validate.errors ?? []).length > 1));
      const first = errors.find((e) => e.keyword === "additionalProperties" || e.keyword === "required") ?? errors[0];
      say([...at, ...pathOf(first.instancePath, first)], messageOf(first));
      return;
    }
    const trigger = step as unknown as TriggerStep;
    if ("trigger" in step) {
      const reference = referenceOf(trigger.id);
      if (reference) {
        const type = names.get(reference.name);
        if (!type) say([...at, "id"], `$${reference.name} names no earlier step (give a step name: ${reference.name})`);
        else if (!eventDataFields(type).includes(reference.field)) say([...at, "id"], `${reference.field} is not a field of a ${type} event's data; its fields are ${eventDataFields(type).join(", ")}`);
      }
      if (trigger.name !== undefined) {
        if (names.has(trigger.name)) say([...at, "name"], `the name ${trigger.name} is already taken by an earlier step`);
        names.set(trigger.name, trigger.trigger);
      }
    }
    placed.push({ step: step as unknown as ScenarioStep, index, line: lineOf(at) });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, steps: placed };
}

/** A JSON pointer as a path, with the missing or unknown property where the error names one. */
function pathOf(pointer: string, error: { keyword: string; params: Record<string, any> }): (string | number)[] {
  const path: (string | number)[] = pointer.split("/").slice(1).map((part) => (/^\d+$/.test(part) ? Number(part) : part.replaceAll("~1", "/").replaceAll("~0", "~")));
  if (error.keyword === "additionalProperties") path.push(error.params.additionalProperty);
  if (error.keyword === "required") path.push(error.params.missingProperty);
  return path;
}

function messageOf(error: { keyword: string; message?: string; params: Record<string, any> }): string {
  if (error.keyword === "additionalProperties") return "is not a field here";
  if (error.keyword === "required") return "is required";
  if (error.keyword === "enum") return `must be one of ${(error.params.allowedValues as unknown[]).join(", ")}`;
  if (error.keyword === "maxProperties" && error.params.limit === 0) return "this event type takes no overrides";
  return error.message ?? error.keyword;
}

/** `steps[2].set.startDate`. */
function placeName(path: (string | number)[]): string {
  return path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${part}` : part), "") || "the file";
}
