// Shared by the sandbox suites: calls to a running mock's API and control API as a user makes them
// (plain fetch, JSON bodies), and a sandbox as the control API answers it.
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request to the mock at `url` with `key`; a body is sent as JSON. */
export async function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : JSON.parse(text), headers: response.headers };
}

export interface SandboxKeys {
  id: string;
  /** The sandbox's key standing for each demo key, by the demo key. */
  key: (demoKey: string) => string;
}

/** POST /_mock/sandboxes with the default world's webhooks key; throws with the message unless 201. */
export async function createSandbox(url: string, label?: string): Promise<SandboxKeys> {
  const answer = await call(url, DEMO_KEY.org1WebhooksAdmin, "POST", "/_mock/sandboxes", label === undefined ? undefined : { label });
  if (answer.status !== 201) throw new Error(`creating a sandbox answered ${answer.status}: ${answer.body?.message}`);
  return keysOf(answer.body.data);
}

export function keysOf(view: { id: string; keys: { key: string; demoKey: string }[] }): SandboxKeys {
  return {
    id: view.id,
    key: (demoKey) => {
      const found = view.keys.find((k) => k.demoKey === demoKey);
      if (!found) throw new Error(`sandbox ${view.id} has no key standing for ${demoKey}`);
      return found.key;
    },
  };
}

/** The default world's keys are the demo keys themselves. */
export const DEFAULT_WORLD: SandboxKeys = { id: "default", key: (demoKey) => demoKey };

/**
 * What one test file does against a shared mock while other files do the same: several sandboxes at
 * once, each changed through its own keys, each seeing only its own changes. Returns a line per
 * problem seen (none when isolation held).
 */
export async function parallelScenario(url: string, file: string, ids: { waitingLeaveRequestId: string }, sandboxes = 4): Promise<string[]> {
  const problems: string[] = [];
  const worlds = await Promise.all(Array.from({ length: sandboxes }, (_, i) => createSandbox(url, `${file} #${i}`)));
  const statusOf = async (world: SandboxKeys) => (await call(url, world.key(DEMO_KEY.org1Full), "GET", `/v1/leaverequest/details/${ids.waitingLeaveRequestId}`)).body?.data?.leaveStatus;
  const admin = (world: SandboxKeys) => world.key(DEMO_KEY.org1WebhooksAdmin);
  // Every other sandbox approves the waiting request, adds an endpoint and a fault; the rest do nothing.
  const acting = worlds.filter((_, i) => i % 2 === 0);
  await Promise.all(
    acting.map(async (world) => {
      const triggered = await call(url, admin(world), "POST", "/_mock/webhooks/events", { type: "leave.approved", id: ids.waitingLeaveRequestId });
      if (triggered.status !== 202) problems.push(`${world.id}: the trigger answered ${triggered.status}: ${triggered.body?.message}`);
      await call(url, admin(world), "POST", "/_mock/webhooks/endpoints", { url: "http://127.0.0.1:9/hooks", events: ["leave.requested"] });
      await call(url, admin(world), "POST", "/_mock/faults", { operation: "listDepartments", status: 503 });
    }),
  );
  for (const [i, world] of worlds.entries()) {
    const changed = i % 2 === 0;
    const status = await statusOf(world);
    if (status !== (changed ? "Approved" : "Submitted")) problems.push(`${file} sandbox #${i}: the waiting request is ${status}, expected ${changed ? "Approved" : "Submitted"}`);
    const endpoints = (await call(url, admin(world), "GET", "/_mock/webhooks/endpoints")).body.data.length;
    if (endpoints !== (changed ? 1 : 0)) problems.push(`${file} sandbox #${i}: ${endpoints} endpoints, expected ${changed ? 1 : 0}`);
    const departments = (await call(url, world.key(DEMO_KEY.org1Full), "GET", "/v1/department/list")).status;
    if (departments !== (changed ? 503 : 200)) problems.push(`${file} sandbox #${i}: the department list answered ${departments}, expected ${changed ? 503 : 200}`);
  }
  const demo = await statusOf(DEFAULT_WORLD);
  if (demo !== "Submitted") problems.push(`${file}: the demo keys see the waiting request ${demo}, expected Submitted`);
  const demoDepartments = (await call(url, DEMO_KEY.org1Full, "GET", "/v1/department/list")).status;
  if (demoDepartments !== 200) problems.push(`${file}: the demo keys' department list answered ${demoDepartments}, expected 200`);
  for (const world of worlds) {
    const deleted = await call(url, DEMO_KEY.org1WebhooksAdmin, "DELETE", `/_mock/sandboxes/${world.id}`);
    if (deleted.status !== 200) problems.push(`${file}: deleting ${world.id} answered ${deleted.status}`);
  }
  return problems;
}

/** A check of control API answers against the schema the control document gives for their operation and status. */
export function controlAnswerCheck(spec: any, validate: (pointer: string, body: unknown) => unknown[]) {
  return (method: string, path: string, answer: Answer): string[] => {
    const template = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path.split("?")[0]));
    if (!template) return [`no path of the control document matches ${path}`];
    let response = spec.paths[template][method.toLowerCase()]?.responses?.[String(answer.status)];
    if (!response) return [`${method} ${template} does not declare status ${answer.status}`];
    if (response.$ref) response = response.$ref.slice(2).split("/").reduce((node: any, key: string) => node[key], spec);
    let schema = response.content["application/json"].schema;
    const pointer = schema.$ref ? `/${schema.$ref.split("#/")[1]}` : undefined;
    if (!pointer) return [`${method} ${template} ${answer.status}: the schema is not a component`];
    return validate(pointer, answer.body).map((problem) => `${method} ${path} ${answer.status}: ${JSON.stringify(problem)}`);
  };
}
