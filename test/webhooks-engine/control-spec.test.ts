// The control API's own OpenAPI document (mock/control/openapi.yaml; linted with the others in
// test/spec/lint.test.ts): its event types are the catalogue's, and the routes the handler serves are
// the document's operations.
import { describe, expect, test } from "vitest";
import { webhookEventTypes } from "../../generated/events.js";
import { controlSpec } from "../../mock/control/spec.js";
import { DELIVERY_STATES } from "../../mock/webhooks/delivery-log.js";
import { MAX_URL_LENGTH } from "../../mock/webhooks/endpoint-url.js";
import { MAX_DESCRIPTION_LENGTH, SECRET_PATTERN } from "../../mock/webhooks/endpoints.js";
import { SUBJECTS } from "../../mock/webhooks/triggers.js";

const document = controlSpec().document;

describe("mock/control/openapi.yaml", () => {
  test("EventType lists exactly the catalogue's event types", () => {
    expect([...document.components.schemas.EventType.enum].sort()).toEqual([...webhookEventTypes].sort());
  });

  test("Delivery.state lists exactly the delivery log's states", () => {
    expect(document.components.schemas.Delivery.properties.state.enum).toEqual([...DELIVERY_STATES]);
  });

  test("AddEndpointRequest's limits are the endpoint registry's (in-process and --webhook-url callers meet the same rules)", () => {
    const fields = document.components.schemas.AddEndpointRequest.properties;
    expect(fields.url.maxLength, "url").toBe(MAX_URL_LENGTH);
    expect(fields.description.maxLength, "description").toBe(MAX_DESCRIPTION_LENGTH);
    expect(fields.secret.pattern, "secret").toBe(SECRET_PATTERN.source);
  });

  test("every operation is served and needs Manage Webhooks; every path is under /_mock/", () => {
    const routes = controlSpec().routes;
    expect(routes.map((r) => r.operationId).sort()).toEqual([
      "addWebhookEndpoint",
      "listWebhookDeliveries",
      "listWebhookEndpoints",
      "removeWebhookEndpoint",
      "testWebhookEndpoint",
      "triggerWebhookEvent",
    ]);
    for (const [path, item] of Object.entries<any>(document.paths)) {
      expect(path).toMatch(/^\/_mock\//);
      for (const operation of Object.values<any>(item)) expect(operation["x-permission"], path).toBe("Manage Webhooks");
    }
  });

  test("the trigger operation's table names what id means for every event type, as the engine does", () => {
    const description: string = document.paths["/_mock/webhooks/events"].post.description;
    for (const type of webhookEventTypes) {
      expect(description, type).toContain(`| \`${type}\` |`);
      expect(SUBJECTS[type], type).toBeDefined();
    }
  });
});
