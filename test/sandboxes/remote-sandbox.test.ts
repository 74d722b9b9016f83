// createRemoteSandbox (the Playwright fixture's sandboxes) against the run's shared mock over HTTP:
// the sandbox's own journal, verify() judged where the journal is, and its pact made there too.
import { expect, inject, test } from "vitest";
import { createRemoteSandbox } from "../../mock/app/remote-sandbox.js";
import { VerificationError } from "../../mock/app/journal-access.js";

const mock = inject("mock");

test("a remote sandbox: its key's requests are in its journal alone, verify() holds or names what came, pact() is its journal as a Pact V4 file", async () => {
  const sandbox = await createRemoteSandbox({ mockUrl: mock.url, label: "remote sandbox test" });
  try {
    const answer = await fetch(`${mock.url}/v1/department/list?PageSize=3`, { headers: { authorization: `Bearer ${sandbox.key.org1Full}` } });
    expect(answer.status, "the sandbox key's request").toBe(200);
    const held = await sandbox.verify({ operationId: "listDepartments" }, { times: 1 });
    expect(held.map((r) => r.status), "the request verify() found").toEqual([200]);
    const wrong = await sandbox.verify({ operationId: "listEmployees" }, { times: 1 }).catch((error: unknown) => error);
    expect(wrong, "a verification that does not hold").toBeInstanceOf(VerificationError);
    expect((wrong as VerificationError).message, "its message names the operation").toContain("listEmployees");
    const pact = await sandbox.pact({ consumer: "remote-test", provider: "hr-service" });
    expect([pact.consumer.name, pact.provider.name, (pact.metadata as { pactSpecification: { version: string } }).pactSpecification.version], "the pact's parties and version").toEqual(["remote-test", "hr-service", "4.0"]);
    expect(pact.interactions.map((i) => (i as { request: { path: string } }).request.path), "one interaction, the sandbox's request").toEqual(["/v1/department/list"]);
  } finally {
    await sandbox.delete();
  }
});
