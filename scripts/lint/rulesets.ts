// The Spectral rulesets of `npm run lint`. Every rule switched off says in one sentence why it does
// not apply to this read-only API described from the provider's document; everything else is on.
import spectralRulesets from "@stoplight/spectral-rulesets";
import owaspRuleset from "@stoplight/spectral-owasp-ruleset";
import type { RulesetDefinition } from "@stoplight/spectral-core";
import { oas3 } from "@stoplight/spectral-formats";
import { schema } from "@stoplight/spectral-functions";
import { withRememberedExamples } from "./remembered-examples.js";

// The packages' declarations describe their ruleset objects literally (with their own copies of
// Spectral's types), which TypeScript does not match to RulesetDefinition; each is one. The OAS
// example rules are theirs, with their findings remembered (see remembered-examples.ts).
const oas = withRememberedExamples(spectralRulesets.oas as unknown as RulesetDefinition, ["oas3-valid-media-example", "oas3-valid-schema-example"]);
const asyncapi = spectralRulesets.asyncapi as unknown as RulesetDefinition;
const owasp = owaspRuleset as unknown as RulesetDefinition;

export type RulesetName = "read-api" | "control-api" | "events";

export const RULESETS: Record<RulesetName, RulesetDefinition> = {
  "read-api": {
    extends: [
      [oas, "recommended"],
      [owasp, "recommended"],
    ],
    rules: {
      // The 5XX range response declares every server failure (500 included) with the failure envelope.
      "owasp:api8:2023-define-error-responses-500": "off",
      // The provider shows no CORS policy and a browser must not hold an organisation's secret key, so the contract promises no Access-Control-* header (the mock's any-origin answer is a development convenience).
      "owasp:api8:2023-define-cors-origin": "off",
      // Names, descriptions, messages and search terms are free text with no pattern to give; each has a maxLength (string-limit) instead.
      "owasp:api4:2023-string-restricted": "off",
      // It wants RateLimit-Limit with RateLimit-Reset (or RateLimit, X-RateLimit-Limit) on every 2xx and 4xx, 401 included; the service sends Limit and Remaining, and not before the key is known, which hr-rate-limit-headers checks instead.
      "owasp:api4:2023-rate-limit": "off",
      "hr-rate-limit-headers": {
        description: "Every answer counted by the rate limiter (2xx and 4xx once the key is known: not 401, not 405) declares the RateLimit headers the limiter sends.",
        message: "{{error}}",
        severity: "error",
        formats: [oas3],
        given: "$.paths[*][*].responses[?(@property.match(/^(2|4)/) && @property != '401' && @property != '405')]",
        then: {
          field: "headers",
          function: schema,
          functionOptions: { schema: { type: "object", required: ["RateLimit-Limit", "RateLimit-Remaining"] } },
        },
      },
    },
  },
  // The mock's own control API on 127.0.0.1 (endpoints, triggers, delivery log), not the provider's
  // contract: the OAS rules apply, the OWASP rules for a public API do not.
  "control-api": { extends: [[oas, "recommended"]] },
  events: {
    extends: [[asyncapi, "recommended"]],
    rules: {
      // 3.0.0 is the version the official JSON Schema test and the parser's validation pin; 3.1 adds nothing this document uses.
      "asyncapi-latest-version": "off",
    },
  },
};
