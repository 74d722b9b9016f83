// generated/scenario.schema.json: the format of `hr-mock scenario` files, built from the control
// document's trigger body (TriggerRequest, its per-type `set` schemas and what they reference), with
// `type` spelled `trigger` as a step says it, an optional `name` to refer to the step's event, and
// an `id` that may be such a reference. Nothing of a trigger's fields is retyped here.
type Json = Record<string, any>;

/** A reference to an earlier step's event data: `$name.field`. */
export const SCENARIO_REFERENCE = "^\\$[A-Za-z_][A-Za-z0-9_-]*\\.[A-Za-z][A-Za-z0-9]*$";

export function renderScenarioSchema(control: Json): Json {
  const schemas: Json = control.components?.schemas ?? {};
  const defs: Json = JSON.parse(JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const request = defs.TriggerRequest;
  if (!request?.properties?.type || !request.properties.id) throw new Error("the control document's TriggerRequest has no type and id");
  const { type, id, ...rest } = request.properties;
  const step: Json = {
    type: "object",
    description: "A trigger, as the control API's trigger body with `type` spelled `trigger`; `name` lets later steps refer to its event's data.",
    required: ["trigger"],
    additionalProperties: false,
    properties: {
      name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_-]*$", description: "A name for this step; a later step's id may be `$name.field`, a field of this step's event data." },
      trigger: type,
      id: { description: id.description, anyOf: [{ ...id, description: undefined }, { type: "string", pattern: SCENARIO_REFERENCE, description: "A field of an earlier named step's event data, `$name.field`." }] },
      ...rest,
    },
    allOf: (request.allOf ?? []).map((part: Json) => ({ ...part, if: { ...part.if, required: ["trigger"], properties: { trigger: part.if.properties.type } } })),
  };
  delete defs.TriggerRequest;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "hr-mock scenario",
    description: "Triggers to run in order against a running mock (`hr-mock scenario FILE`), with optional waits.",
    type: "object",
    required: ["steps"],
    additionalProperties: false,
    properties: {
      $schema: { type: "string", description: "This schema's location, for editors." },
      description: { type: "string", description: "What the scenario shows." },
      steps: {
        type: "array",
        minItems: 1,
        description: "The steps, run in order; the run stops at the first one the mock refuses.",
        items: { oneOf: [{ $ref: "#/$defs/TriggerStep" }, { $ref: "#/$defs/WaitStep" }] },
      },
    },
    $defs: {
      TriggerStep: step,
      WaitStep: {
        type: "object",
        description: "A pause between two triggers.",
        required: ["wait"],
        additionalProperties: false,
        properties: { wait: { type: "integer", minimum: 0, maximum: 600000, description: "Milliseconds to wait." } },
      },
      ...defs,
    },
  };
}
