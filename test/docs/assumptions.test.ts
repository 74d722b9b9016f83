// How the assumptions page names places and gathers marks, on small documents shaped like the
// bundled ones; and the guards that keep the third-party pages offline and navigable.
import { describe, expect, test } from "vitest";
import { collectAssumptions, collectNotShown, sentences, textUnits } from "../../scripts/docs/assumptions.js";
import { finishApiReference } from "../../scripts/docs/api-reference.js";
import { renderEventsReference, scriptJson } from "../../scripts/docs/events-reference.js";
import { injectNav, renderNav } from "../../scripts/docs/layout.js";
import { describeLocation } from "../../scripts/docs/spec-locations.js";

const openapi = {
  openapi: "3.1.0",
  paths: {
    "/v1/leaverequest/list": {
      get: {
        "x-assumption": "The list is newest first.",
        parameters: [{ $ref: "#/components/parameters/PageSize" }, { name: "Inline", in: "query", "x-assumption": "Inline is ignored." }],
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } } },
          "429": { $ref: "#/components/responses/TooManyRequests" },
        },
      },
    },
    "/v1/leavebalance/get-leave-balance": {
      get: {
        parameters: [{ $ref: "#/components/parameters/PageSize" }],
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/LeaveBalance" } } } },
          "429": { $ref: "#/components/responses/TooManyRequests" },
        },
      },
    },
  },
  webhooks: {
    "leave.cancelled": { post: { requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/LeaveCancelledData" } } } } } },
  },
  components: {
    parameters: { PageSize: { name: "PageSize", in: "query", "x-assumption": "The largest PageSize is 100." } },
    schemas: {
      Page: { type: "object", properties: { data: { type: "array", items: { type: "object", properties: { days: { type: "number", "x-assumption": "Days are working days." } } } } } },
      LeaveBalance: { type: "object", properties: { totalDays: { type: "number", "x-assumption": "totalDays includes carried days." } } },
      LeaveCancelledData: { type: "object", properties: { status: { const: "Abandoned", "x-assumption": "A cancelled request is Abandoned." } } },
    },
    responses: {
      TooManyRequests: { description: "Too many requests.", headers: { "Retry-After": { schema: { type: "integer" }, "x-assumption": "Retry-After is whole seconds." } } },
    },
  },
};

// As the bundle writes it: the trait is copied into each message, the payload is a reference.
const trait = { headers: { type: "object", properties: { "Service-Delivery-Id": { type: "string", "x-assumption": "A delivery id is new per attempt." } } } };
const asyncapi = {
  asyncapi: "3.0.0",
  info: { description: "Intro.\n\nThe provider names 13 of them; the other 19 exist but are not shown.\n\n| Limit | Value |\n|---|---|\n| Replay | 24 hours (the header is not shown) |" },
  operations: { sendWebhookEvent: { action: "send", "x-assumption": "Nine attempts.", messages: [{ $ref: "#/components/messages/leaveCancelled" }] } },
  components: {
    messages: {
      leaveCancelled: { name: "leave.cancelled", traits: [trait], payload: { $ref: "#/components/schemas/LeaveCancelledEvent" } },
      leaveApproved: { name: "leave.approved", traits: [trait], payload: { type: "object" } },
    },
    messageTraits: { WebhookDelivery: trait },
    schemas: {
      LeaveCancelledEvent: { type: "object", properties: { data: { $ref: "#/components/schemas/LeaveCancelledData" } } },
      LeaveCancelledData: { type: "object", "x-assumption": "The data holds the ids.", properties: { status: { const: "Abandoned", "x-assumption": "A cancelled request is Abandoned." } } },
      LeaveStatusName: { type: "string", "x-transitions": "Not shown by the provider." },
    },
  },
};

const documents = [
  { name: "OpenAPI", kind: "openapi" as const, doc: openapi },
  { name: "AsyncAPI", kind: "asyncapi" as const, doc: asyncapi },
];

describe("describeLocation names a place as a reader would", () => {
  const cases: Array<[string, { given: { kind: "openapi" | "asyncapi"; path: string[] }; want: string }]> = [
    ["an operation", { given: { kind: "openapi", path: ["paths", "/v1/leaverequest/list", "get"] }, want: "GET /v1/leaverequest/list" }],
    ["an inline parameter, by its name", { given: { kind: "openapi", path: ["paths", "/v1/leaverequest/list", "get", "parameters", "1"] }, want: "GET /v1/leaverequest/list · parameter Inline" }],
    ["a referenced parameter, by the name it declares", { given: { kind: "openapi", path: ["paths", "/v1/leaverequest/list", "get", "parameters", "0"] }, want: "GET /v1/leaverequest/list · parameter PageSize" }],
    ["a component parameter", { given: { kind: "openapi", path: ["components", "parameters", "PageSize"] }, want: "parameter PageSize" }],
    ["a schema property", { given: { kind: "openapi", path: ["components", "schemas", "LeaveBalance", "properties", "totalDays"] }, want: "schema LeaveBalance · totalDays" }],
    ["a property of array items", { given: { kind: "openapi", path: ["components", "schemas", "Page", "properties", "data", "items", "properties", "days"] }, want: "schema Page · data[].days" }],
    ["a response header", { given: { kind: "openapi", path: ["components", "responses", "TooManyRequests", "headers", "Retry-After"] }, want: "response TooManyRequests · header Retry-After" }],
    ["an operation's response body", { given: { kind: "openapi", path: ["paths", "/v1/leaverequest/list", "get", "responses", "200", "content", "application/json", "schema"] }, want: "GET /v1/leaverequest/list · response 200 · body" }],
    ["a webhook", { given: { kind: "openapi", path: ["webhooks", "leave.cancelled", "post"] }, want: "webhook leave.cancelled" }],
    ["an event, by its type", { given: { kind: "asyncapi", path: ["components", "messages", "leaveCancelled"] }, want: "event leave.cancelled" }],
    ["a header a trait gives an event", { given: { kind: "asyncapi", path: ["components", "messages", "leaveCancelled", "traits", "0", "headers", "properties", "Service-Delivery-Id"] }, want: "event leave.cancelled · header Service-Delivery-Id" }],
    ["an AsyncAPI operation", { given: { kind: "asyncapi", path: ["operations", "sendWebhookEvent"] }, want: "operation sendWebhookEvent" }],
    ["the document's description", { given: { kind: "asyncapi", path: ["info"] }, want: "document description" }],
    ["a place without a name, as its path", { given: { kind: "openapi", path: ["x-custom", "a"] }, want: "x-custom › a" }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const doc = given.kind === "openapi" ? openapi : asyncapi;
    expect(describeLocation(given.kind, doc, given.path), `location of ${given.path.join("/")}`).toBe(want);
  });
});

describe("collectAssumptions", () => {
  const marks = collectAssumptions(documents);
  const bySentence = (sentence: string) => {
    const mark = marks.find((m) => m.sentence === sentence);
    if (!mark) throw new Error(`no mark for "${sentence}"; found: ${marks.map((m) => m.sentence).join(" | ")}`);
    return mark;
  };

  test("lists each sentence once, in document order", () => {
    expect(marks.map((mark) => mark.sentence)).toEqual([
      "The list is newest first.",
      "Inline is ignored.",
      "The largest PageSize is 100.",
      "Days are working days.",
      "totalDays includes carried days.",
      "A cancelled request is Abandoned.",
      "Retry-After is whole seconds.",
      "Nine attempts.",
      "A delivery id is new per attempt.",
      "The data holds the ids.",
    ]);
  });

  test("a shared component is written where it is defined and applies to each operation using it", () => {
    const mark = bySentence("The largest PageSize is 100.");
    expect(mark.where, "where").toEqual([{ document: "OpenAPI", label: "parameter PageSize" }]);
    expect(mark.appliesTo.map((p) => p.label), "applies to").toEqual(["GET /v1/leaverequest/list", "GET /v1/leavebalance/get-leave-balance"]);
    expect(mark.section, "section").toBe("api");
  });

  test("a trait copied into every message counts once, at its most canonical place, and applies to every event", () => {
    const mark = bySentence("A delivery id is new per attempt.");
    expect(mark.where, "where").toEqual([{ document: "AsyncAPI", label: "message trait WebhookDelivery · header Service-Delivery-Id" }]);
    expect(mark.appliesTo.map((p) => p.label), "applies to").toEqual(["event leave.cancelled", "event leave.approved"]);
    expect(mark.section, "section").toBe("events");
  });

  test("the same sentence in both documents is one entry naming both places", () => {
    const mark = bySentence("A cancelled request is Abandoned.");
    expect(mark.where, "where").toEqual([
      { document: "OpenAPI", label: "schema LeaveCancelledData · status" },
      { document: "AsyncAPI", label: "schema LeaveCancelledData · status" },
    ]);
    expect(mark.appliesTo.map((p) => p.label), "applies to").toEqual(["webhook leave.cancelled", "event leave.cancelled"]);
    expect(mark.section, "section").toBe("events");
  });

  test("an AsyncAPI operation's own mark does not apply to the events it lists", () => {
    expect(bySentence("Nine attempts.").appliesTo.map((p) => p.label)).toEqual(["operation sendWebhookEvent"]);
  });
});

describe("collectNotShown", () => {
  test("takes the sentences saying 'not shown' from descriptions, table rows and x- fields", () => {
    const marks = collectNotShown(documents);
    expect(marks.map((mark) => [mark.where.map((p) => p.label).join(", "), mark.sentence])).toEqual([
      ["document description", "The provider names 13 of them; the other 19 exist but are not shown."],
      ["document description", "Replay: 24 hours (the header is not shown)"],
      ["schema LeaveStatusName · transitions", "Not shown by the provider."],
    ]);
  });

  const units: Array<[string, { given: string; want: string[] }]> = [
    ["joins a paragraph wrapped over lines", { given: "one\ntwo.\n\nthree.", want: ["one two.", "three."] }],
    ["keeps list items apart", { given: "- a\n- b\n1. c", want: ["a", "b", "c"] }],
    ["turns a table row into cell: cell and drops the rule", { given: "| A | B |\n|---|:-:|\n| x | y |", want: ["A: B", "x: y"] }],
    ["drops headings", { given: "## Title\ntext", want: ["text"] }],
  ];
  test.each(units)("textUnits %s", (_name, { given, want }) => {
    expect(textUnits(given)).toEqual(want);
  });

  test("sentences split after a full stop followed by a capital or a code span", () => {
    expect(sentences("One is `a`. Two (b). `c` three. e.g. four")).toEqual(["One is `a`.", "Two (b).", "`c` three. e.g. four"]);
  });
});

describe("offline guards of the third-party pages", () => {
  const NAV = renderNav("api.html", { guides: [] });
  const redoc = (extra = "") =>
    `<html><head><title>x</title></head><body><div id="redoc"><a class="m" href="/section/scope" data-discover="true">Scope</a><a href="/" data-discover="true">API</a></div><script>const a="https://cdn.redoc.ly/redoc/logo-mini-full.svg",b="https://cdn.redoc.ly/redoc/logo-mini.svg";const o={"disableTelemetry":true};${extra}</script></body></html>`;

  test("the Redoc logo is inlined and the nav added", () => {
    const html = finishApiReference(redoc(), NAV);
    expect(html, "no CDN address left").not.toContain("cdn.redoc.ly");
    expect(html, "the logo as a data: URL").toContain("data:image/svg+xml,");
    expect(html, "the site nav").toContain('<nav id="site-nav"');
  });

  test("the menu links Redoc prerenders as root paths are written as the hash links its script follows", () => {
    const html = finishApiReference(redoc(), NAV);
    expect(html).toContain('<a class="m" href="#/section/scope" data-discover="true">');
    expect(html).toContain('<a href="#/" data-discover="true">');
    expect(() => finishApiReference(redoc().replace(/ data-discover="true"/g, ""), NAV), "a Redoc whose links changed form").toThrow(/no longer prerenders its menu links/);
    expect(() => finishApiReference(redoc('const r={"router":"history"};'), NAV), "a Redoc routing by the path").toThrow(/router: history/);
  });

  test("a Redoc page without the expected logo address fails the build instead of going online", () => {
    expect(() => finishApiReference(redoc().replace("logo-mini-full.svg", "logo-new.svg"), NAV)).toThrow(/no longer contains https:\/\/cdn\.redoc\.ly/);
  });

  test("a Redoc page with browser telemetry on fails the build", () => {
    expect(() => finishApiReference(redoc().replace('"disableTelemetry":true', '"disableTelemetry":false'), NAV)).toThrow(/telemetry/);
  });

  test("an events page whose renderer would load from another host fails the build", () => {
    const page = (script: string) => renderEventsReference({ document: { info: { title: "Events" } }, script, styles: "", nav: NAV });
    expect(page("window.x = 1;"), "a renderer that loads nothing").toContain("AsyncApiStandalone.render");
    expect(() => page('document.body.innerHTML = \'<img src="https://cdn.example/logo.png">\';')).toThrow(/external asset/);
  });

  test("the document inlined in the events page cannot close its script element", () => {
    const text = scriptJson({ description: "</script><script>alert(1)</script>\u2028" });
    expect(text, "no closing tag").not.toMatch(/<\/script/i);
    expect(JSON.parse(text), "the same value").toEqual({ description: "</script><script>alert(1)</script>\u2028" });
  });

  test("injectNav adds an inline icon (no /favicon.ico request) only when the page has none", () => {
    expect(injectNav("<html><head></head><body></body></html>", NAV), "added").toContain('<link rel="icon" href="data:,">');
    expect(injectNav('<html><head><link rel="icon" href="data:x"></head><body></body></html>', NAV), "kept").not.toContain('href="data:,"');
  });
});
