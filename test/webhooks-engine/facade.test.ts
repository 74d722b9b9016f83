// The in-process facade (startMock's `mock.webhooks`): input from code meets no HTTP edge, so the
// facade checks it once, against the control API's request schemas, and throws the reason (never
// a status) as an EndpointError; the rules no schema states (a URL's host, the limit) come from the
// service as the same kind of reason.
import { afterAll, describe, expect, test } from "vitest";
import { deliveryRules } from "../../generated/webhook-facts.js";
import { createDataset } from "../../mock/data/dataset.js";
import { WebhookEngine } from "../../mock/webhooks/engine.js";
import { EndpointError } from "../../mock/webhooks/reasons.js";

const dataset = createDataset({ seed: 1, scale: 0.1 });
const engine = new WebhookEngine(dataset, { strictUrls: true, onError: () => {} });
afterAll(() => engine.close());

/** The error addEndpoint throws for the input, or undefined when it is accepted. */
async function refusal(input: unknown, organisation?: number): Promise<EndpointError | undefined> {
  try {
    await engine.addEndpoint(input as never, organisation);
    return undefined;
  } catch (error) {
    if (!(error instanceof EndpointError)) throw error;
    return error;
  }
}

describe("addEndpoint refuses with a reason naming the field", () => {
  const cases: Array<[string, { given: unknown; want: { kind: string; field?: string; message: RegExp } }]> = [
    ["no url", { given: {}, want: { kind: "invalid", field: "url", message: /^url is required/ } }],
    ["a url that is not text", { given: { url: 42 }, want: { kind: "invalid", field: "url", message: /^url must be string, got 42/ } }],
    ["a url longer than the schema allows", { given: { url: `https://hooks.example.com/${"x".repeat(2048)}` }, want: { kind: "invalid", field: "url", message: /^url must NOT have more than 2048 characters/ } }],
    ["an unknown field", { given: { url: "https://hooks.example.com/x", colour: "red" }, want: { kind: "invalid", field: "colour", message: /is not a field of AddEndpointRequest; the fields are url, description, events, secret/ } }],
    ["an unknown event type", { given: { url: "https://hooks.example.com/x", events: ["salary.changed"] }, want: { kind: "invalid", field: "events[0]", message: /got "salary\.changed"/ } }],
    ["a secret without whsec_ (not echoed)", { given: { url: "https://hooks.example.com/x", secret: "sk_live_abcdefghijklmnopqrstuv" }, want: { kind: "invalid", field: "secret", message: /^secret must match pattern "[^"]+" \(secret\)\.$/ } }],
    ["http under strictUrls (the service's rule, not the schema's)", { given: { url: "http://127.0.0.1:3000/x" }, want: { kind: "invalid", field: "url", message: /must start with https:\/\// } }],
    ["a private host under strictUrls", { given: { url: "https://192.168.1.20/x" }, want: { kind: "invalid", field: "url", message: /private address/ } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const error = await refusal(given);
    expect(error, "refused").toBeInstanceOf(EndpointError);
    expect(error).toMatchObject({ kind: want.kind, field: want.field });
    expect(error?.message).toMatch(want.message);
    expect(error, "no HTTP status on a domain refusal").not.toHaveProperty("status");
  });

  test("the organisation's limit is a conflict, from the service", async () => {
    for (let i = 0; i < deliveryRules.maxEndpointsPerOrganisation; i++) expect(await refusal({ url: `https://hooks.example.com/${i}` }, 2)).toBeUndefined();
    expect(await refusal({ url: "https://hooks.example.com/over" }, 2)).toMatchObject({ kind: "conflict", field: undefined });
  });

  test("an accepted endpoint is listed, and removing it gives it back once", async () => {
    const created = await engine.addEndpoint({ url: "https://hooks.example.com/ok", events: ["leave.approved", "leave.approved"] });
    expect(created).toMatchObject({ url: "https://hooks.example.com/ok", events: ["leave.approved"], secret: expect.stringMatching(/^whsec_/) });
    expect((await engine.listEndpoints()).map((e) => e.id)).toContain(created.id);
    expect((await engine.removeEndpoint(created.id))?.id).toBe(created.id);
    expect(await engine.removeEndpoint(created.id), "already gone").toBeUndefined();
  });
});
