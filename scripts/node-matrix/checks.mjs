// The matrix's in-process checks (scripts/node-matrix.ts), run by each Node line from inside the
// project where the packed packages are installed (copied there, so that bare imports resolve to
// the installed packages): `node checks.mjs NAME…`, in one process (the mock's libraries load once).
// Plain JavaScript: no line needs a loader. For each check one JSON line on stdout, {name, detail}
// or {name, failure}; exit 1 when one failed.
import assert from "node:assert/strict";

const checks = {
  /** startMock in this process, and the typed client against it. */
  async client() {
    const { startMock, DEMO_KEY } = await import("hr-service-mock");
    const { createClient, HrApiError } = await import("hr-service-contract/client");
    const mock = await startMock({ port: 0 });
    try {
      const hr = createClient({ baseUrl: mock.url, apiKey: DEMO_KEY.org1Full, retry: false });
      const page = await hr.listLeaveTypes({ PageSize: 2 });
      assert.equal(page.data.length, 2, "leave types on a page of 2");
      const refused = await createClient({ baseUrl: mock.url, apiKey: DEMO_KEY.org1LeaveView, retry: false }).listDepartments().then(() => "answered", (error) => (error instanceof HrApiError ? `${error.kind} ${error.status}` : String(error)));
      assert.equal(refused, "permission 403", "a key without the permission");
      return `startMock at ${mock.url}: 2 leave types read, a key without the permission refused (403)`;
    } finally {
      await mock.close();
    }
  },

  /** Signing and verifying on Web Crypto and node:crypto, and the node:http receiver graded by hr-contract's receiver check. */
  async webhooks() {
    const web = await import("hr-service-contract/webhooks");
    const node = await import("hr-service-contract/webhooks/node");
    const { checkReceiver } = await import("hr-service-contract/contract");
    const secret = "whsec_node_matrix";
    const now = Math.floor(Date.now() / 1000);
    const header = await web.signAsync('{"a":1}', secret, { timestamp: now });
    await web.verifyAsync('{"a":1}', header, secret, { now });
    node.verify('{"a":1}', node.sign('{"a":1}', secret, { timestamp: now }), secret, { now });
    assert.equal(node.sign('{"a":1}', secret, { timestamp: now }), header, "node:crypto and Web Crypto sign alike");
    const refused = await web.verifyAsync('{"a":2}', header, secret, { now }).then(() => "accepted", (error) => error.name);
    assert.equal(refused, "WebhookSignatureError", "a changed body on Web Crypto");
    const receiver = await node.listen(node.createReceiver({ secret, onEvent() {} }), { port: 0 });
    try {
      const report = await checkReceiver({ url: `${receiver.url}/hooks` }, { secret });
      const failed = report.cases.filter((c) => c.kind === "rule" && !c.ok).map((c) => `${c.name} (${c.reason})`);
      assert.ok(report.ok, `the node:http receiver failed cases: ${failed.join(", ")}`);
      return `signed and verified (Web Crypto, node:crypto); the node:http receiver passed ${report.cases.length} receiver cases`;
    } finally {
      await receiver.close();
    }
  },

  /** The MSW handlers under msw/node, answering the typed client. */
  async msw() {
    const { setupServer } = await import("msw/node");
    const { createHandlers, DEMO_KEY } = await import("hr-service-mock/msw");
    const { createClient } = await import("hr-service-contract/client");
    const server = setupServer(...createHandlers({ seed: 3, today: "2026-04-01", baseUrl: "http://hr.invalid" }));
    server.listen({ onUnhandledRequest: "error" });
    try {
      const page = await createClient({ baseUrl: "http://hr.invalid", apiKey: DEMO_KEY.org1Full, retry: false }).listDepartments({ PageSize: 3 });
      assert.equal(page.data.length, 3, "departments on a page of 3");
      return "setupServer(...createHandlers()): 3 departments read through the typed client";
    } finally {
      server.close();
    }
  },
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in checks));
if (unknown.length) {
  console.error(`checks.mjs: no check ${unknown.join(", ")} (checks: ${Object.keys(checks).join(", ")})`);
  process.exit(2);
}
for (const name of names) {
  try {
    console.log(JSON.stringify({ name, detail: await checks[name]() }));
  } catch (error) {
    console.log(JSON.stringify({ name, failure: error instanceof Error ? error.message : String(error) }));
    process.exitCode = 1;
  }
}
