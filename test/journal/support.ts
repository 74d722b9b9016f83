// Shared by the parallel journal files: what one test file does against the shared mock while the
// others do the same, with sandboxes of its own; returns a line per problem seen (none when every
// world's journal held its own requests and nothing of another's).
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { call, createSandbox, type SandboxKeys } from "../sandboxes/support.js";

const ALL = "/_mock/requests?limit=1000";

export async function journalIsolation(url: string, file: string, sandboxes = 3, requests = 12): Promise<string[]> {
  const problems: string[] = [];
  const worlds = await Promise.all(Array.from({ length: sandboxes }, (_, i) => createSandbox(url, `${file} #${i}`)));
  // Each sandbox's requests carry its own marker in SearchTerm, all sent at once across sandboxes.
  const marker = (world: SandboxKeys) => `${file}-${world.id}`;
  await Promise.all(
    worlds.flatMap((world) =>
      Array.from({ length: requests }, (_, n) =>
        n === 0
          ? call(url, world.key(DEMO_KEY.org1Full), "GET", `/v1/leaverequests?SearchTerm=${marker(world)}`)
          : call(url, world.key(DEMO_KEY.org1Full), "GET", `/v1/leavetype/list?SearchTerm=${marker(world)}&PageNumber=${n}`),
      ),
    ),
  );
  const markers = new Set(worlds.map(marker));
  for (const [i, world] of worlds.entries()) {
    const answer = await call(url, world.key(DEMO_KEY.org1WebhooksAdmin), "GET", ALL);
    if (answer.status !== 200) {
      problems.push(`${file} sandbox #${i}: GET ${ALL} answered ${answer.status}: ${answer.body?.message}`);
      continue;
    }
    const seen: string[] = answer.body.data.requests.map((r: { query: { SearchTerm?: string } }) => r.query.SearchTerm ?? "(none)");
    const own = seen.filter((m) => m === marker(world)).length;
    const foreign = seen.filter((m) => m !== marker(world));
    if (own !== requests) problems.push(`${file} sandbox #${i}: its journal holds ${own} of its ${requests} requests`);
    if (foreign.length > 0) problems.push(`${file} sandbox #${i}: its journal holds requests of another world: ${foreign.slice(0, 3).join(", ")}`);
    const unmatched = answer.body.data.requests.filter((r: { operationId: string | null }) => r.operationId === null).length;
    if (unmatched !== 1) problems.push(`${file} sandbox #${i}: ${unmatched} unmatched requests in its journal, expected its own 1`);
  }
  const demo = await call(url, DEMO_KEY.org1WebhooksAdmin, "GET", ALL);
  const leaked = demo.body.data.requests.filter((r: { query: { SearchTerm?: string } }) => markers.has(r.query.SearchTerm ?? ""));
  if (leaked.length > 0) problems.push(`${file}: the demo keys' journal holds ${leaked.length} requests of this file's sandboxes`);
  for (const world of worlds) {
    const deleted = await call(url, DEMO_KEY.org1WebhooksAdmin, "DELETE", `/_mock/sandboxes/${world.id}`);
    if (deleted.status !== 200) problems.push(`${file}: deleting ${world.id} answered ${deleted.status}`);
  }
  return problems;
}
