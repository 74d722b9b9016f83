// The guides' "Sandboxes for parallel tests", "Scripted faults" and Prefer walkthroughs, run as
// written: each curl command of their sh blocks is sent to an in-process mock (standing in for
// `npm start`) and must answer the status its `# → NNN` comment promises; a body it saves with -o
// is written to a scratch folder, where the walkthrough's `export NAME=$(node -p '…')` lines run in
// bash and node as a reader's shell runs them, setting the variables the later commands use.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { loadOpenApi, operationsOf } from "../../scripts/lib/spec-document.js";
import { examplesAt } from "../support/spec-examples.js";
import { SERVE_HELP } from "../../mock/cli/commands/serve.js";
import { section, shLines, withoutComment, words } from "./documents.js";

const README_BASE = "http://127.0.0.1:4010";
const subsection = (title: string) => section(title).text;
/** Where the walkthrough's shell works: its files (sandbox.json) land here. */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hr-walkthrough-"));

interface Curl {
  kind: "curl";
  line: string;
  want: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** -o FILE: where the answer's body goes. */
  output?: string;
}

/** `export NAME=$(node -p '…')`: a variable set from a file the walkthrough saved. */
interface Export {
  kind: "export";
  line: string;
  name: string;
}

/** The commands of a section's sh blocks, in order: each curl with the status it promises, and each export. */
function walkthrough(text: string): Array<Curl | Export> {
  return shLines(text).map((line): Curl | Export => {
    const exported = /^export ([A-Z_]+)=\$\(node -p '[^']+'\)$/.exec(withoutComment(line));
    if (exported) return { kind: "export", line: withoutComment(line), name: exported[1] };
    expect(line.startsWith("curl "), `a command this test knows (curl, or export NAME=$(node -p …)): ${line}`).toBe(true);
    const promise = /#\s*→\s*(\d{3})/.exec(line);
    expect(promise, `the command says what it answers (# → status): ${line}`).not.toBeNull();
    return { kind: "curl", line, want: Number(promise![1]), ...parseCurl(withoutComment(line)) };
  });
}

function parseCurl(command: string): Omit<Curl, "kind" | "line" | "want"> {
  const parts = words(command).slice(1);
  let method = "GET";
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let output: string | undefined;
  let url = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === "-X") method = parts[++i];
    else if (part === "-H") {
      const [name, ...value] = parts[++i].split(":");
      headers[name.toLowerCase()] = value.join(":").trim();
    } else if (part === "-d") {
      body = parts[++i];
      if (method === "GET") method = "POST";
    } else if (part === "-o") output = parts[++i];
    else if (part === "-s") continue; // silent: no progress meter, the same answer
    else if (part.startsWith("http")) url = part;
    else throw new Error(`the curl uses ${part}, which this test does not know`);
  }
  return { method, url, headers, body, output };
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-02" });
});
afterAll(async () => {
  await mock?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const vars: Record<string, string> = {};
const expand = (text: string) => text.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? `$${name}`);

async function run(command: Curl) {
  const headers = Object.fromEntries(Object.entries(command.headers).map(([k, v]) => [k, expand(v)]));
  const url = expand(command.url).replace(README_BASE, mock.url);
  expect(url, "the command names every variable the text sets").not.toMatch(/\$/);
  const response = await fetch(url, { method: command.method, headers, body: command.body });
  const text = await response.text();
  if (command.output) fs.writeFileSync(path.join(scratch, command.output), text);
  const body = JSON.parse(text);
  expect(response.status, `${command.line}\n${JSON.stringify(body).slice(0, 300)}`).toBe(command.want);
  expect(body.isSuccessful, "the envelope").toBe(command.want < 400);
  return body;
}

/** Runs an export line in bash in the scratch folder, as the reader's shell would, and keeps the value. */
async function runExport(command: Export): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", ["-c", `${command.line}\nprintf %s "$${command.name}"`], { cwd: scratch, timeout: 120_000 });
  expect(stdout, `${command.line} sets ${command.name}`).not.toBe("");
  vars[command.name] = stdout;
  return stdout;
}

const approvedCount = async (key: string) =>
  (await (await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1&LeaveStatus=approved`, { headers: { authorization: `Bearer ${key}` } })).json()).data.totalRecords;

describe("the guide: Sandboxes for parallel tests", () => {
  test("every command answers as the guide says, in order; the exports set the sandbox's id and keys", async () => {
    const commands = walkthrough(subsection("Sandboxes for parallel tests"));
    expect(commands.filter((c) => c.kind === "curl").length).toBeGreaterThanOrEqual(5);
    expect(commands.filter((c) => c.kind === "export").map((c) => (c as Export).name), "the variables the text uses").toEqual(["SANDBOX_ID", "SANDBOX_KEY", "SANDBOX_ADMIN_KEY"]);
    let created: { id: string; keys: Array<{ demoKey: string; key: string }> } | undefined;
    for (const command of commands) {
      if (command.kind === "export") {
        await runExport(command);
        continue;
      }
      const body = await run(command);
      if (command.method === "POST" && command.url.endsWith("/_mock/sandboxes")) created = body.data;
      if (command.url.includes("LeaveStatus=approved")) {
        expect(body.data.totalRecords, "one more approved request than the demo keys see").toBe((await approvedCount(DEMO_KEY.org1Full)) + 1);
      }
      if (command.url.endsWith("/reset")) expect(await approvedCount(vars.SANDBOX_KEY), "the start data again").toBe(await approvedCount(DEMO_KEY.org1Full));
      if (command.method === "DELETE") {
        const after = await fetch(`${mock.url}/v1/leavetype/list`, { headers: { authorization: `Bearer ${vars.SANDBOX_KEY}` } });
        expect(after.status, "its keys are now a 401").toBe(401);
      }
    }
    expect(vars, "the exports read the sandbox's id and keys from the create answer").toMatchObject({
      SANDBOX_ID: created!.id,
      SANDBOX_KEY: created!.keys.find((k) => k.demoKey === DEMO_KEY.org1Full)!.key,
      SANDBOX_ADMIN_KEY: created!.keys.find((k) => k.demoKey === DEMO_KEY.org1WebhooksAdmin)!.key,
    });
  });
});

/** A section's curl commands; a walkthrough of curls only. */
const curls = (title: string) => walkthrough(subsection(title)).map((command) => {
  if (command.kind !== "curl") throw new Error(`${title}: only curl commands expected, not ${command.line}`);
  return command;
});

describe("the guide: Scripted faults", () => {
  test("every command answers as the guide says, in order", async () => {
    const commands = curls("Scripted faults");
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const command of commands) {
      const body = await run(command);
      if (command.want === 503) expect(body.message).toMatch(/^Scripted fault: listLeaveRequests answers 503/);
    }
  });
});

describe("the guide: the spec's examples and generated answers", () => {
  const openapi = loadOpenApi();
  /** The named examples of the operation at a path, by name. */
  const examplesByName = (path: string): Map<string, unknown> => {
    const examples = examplesAt(openapi, path);
    expect(examples, `the guide's path ${path} is an operation of the spec`).toBeDefined();
    return new Map(examples!.map(({ name, value }) => [name, value]));
  };

  test("every command answers as the guide says; an example it names is the spec's, with the spec's status", async () => {
    const commands = curls("The spec's examples and generated answers: `Prefer`");
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      const body = await run(command);
      const name = /example=(\w+)/.exec(command.headers.prefer ?? "")?.[1];
      const examples = examplesByName(new URL(command.url).pathname);
      if (name && examples.has(name)) expect(body, `${command.line}: the spec's example ${name}`).toEqual(examples.get(name));
      if (name && !examples.has(name)) for (const known of examples.keys()) expect(body.message, `${command.line}: the 404 names ${known}`).toContain(known);
    }
  });

  test("the names the guide and serve --help give are the spec's", () => {
    const spec = new Set(operationsOf(openapi).flatMap(([, path]) => [...examplesByName(path).keys()]));
    const text = subsection("The spec's examples and generated answers: `Prefer`").split("```")[0];
    const listed = new Set([...text.matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((word) => /^[a-z][A-Za-z]*$/.test(word)));
    expect([...listed].sort(), "the example names the guide's text lists").toEqual([...spec].sort());
    const helped = [...SERVE_HELP.matchAll(/\b(success|[a-z]+[A-Z]\w*) on every/g)].map((m) => m[1]);
    expect(helped.length, "serve --help names example names").toBeGreaterThan(0);
    for (const name of helped) expect(spec.has(name), `serve --help names ${name}, which no response has`).toBe(true);
  });
});
