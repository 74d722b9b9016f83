// House rules of this package that Redocly's configurable rules cannot express.
const SCALAR = new Set(["string", "integer", "number", "boolean"]);

function isScalar(schema) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  // A schema that is only a const is its own example.
  return types.some((t) => SCALAR.has(t));
}

// Every scalar schema carries an example, except a parameter's or header's own schema:
// the parameter or header carries the example there.
function schemaExample() {
  let ownerDepth = 0;
  let schemaDepth = 0;
  const owner = { enter: () => { ownerDepth++; schemaDepth = 0; }, leave: () => { ownerDepth--; } };
  return {
    Parameter: owner,
    Header: owner,
    Schema: {
      enter(schema, ctx) {
        schemaDepth++;
        const ownSchemaOfOwner = ownerDepth > 0 && schemaDepth === 1;
        if (ownSchemaOfOwner || !isScalar(schema)) return;
        if (!("example" in schema) && !("examples" in schema)) {
          ctx.report({ message: "Every scalar schema (every property) has an example.", location: ctx.location });
        }
      },
      leave() { schemaDepth--; },
    },
  };
}

// x-assumption is one sentence, ending in a period, so the assumptions page reads as a list.
function assumptionSentence() {
  const check = (node, ctx) => {
    if (node && typeof node === "object" && "x-assumption" in node) {
      const text = node["x-assumption"];
      if (typeof text !== "string" || !/^\S.*\.$/s.test(text.trim())) {
        ctx.report({ message: "x-assumption is one sentence ending with a period.", location: ctx.location.child("x-assumption") });
      }
    }
  };
  return { any: { enter: check } };
}

export default function houseRules() {
  return {
    id: "house",
    rules: {
      oas3: { "schema-example": schemaExample, "assumption-sentence": assumptionSentence },
      async3: { "schema-example": schemaExample, "assumption-sentence": assumptionSentence },
    },
  };
}
