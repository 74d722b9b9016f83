// The README's "Sandboxes for parallel tests", "Scripted faults" and Prefer examples, run as written: each
// curl command of their sh blocks is sent to an in-process mock (standing in for `npm start`), with
// $SANDBOX_ID, $SANDBOX_KEY and $SANDBOX_ADMIN_KEY set from the creating answer as the text says, and
// must answer the status its `# → NNN` comment promises.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { loadOpenApi, operationsOf, repoRoot } from "../../scripts/lib/spec-document.js";
import { examplesAt } from "../support/spec-examples.js";
import { SERVE_HELP } from "../../mock/cli/commands/serve.js";

const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const README_BASE = "http://127.0.0.1:4010";

/** The text of a "###" subsection, up to the next heading of level 2 or 3. */
function subsection(title: string): string {
  const start = readme.indexOf(`\n### ${title}\n`);
  expect(start, `README has a subsection "### ${title}"`).toBeGreaterThan(0);
  const rest = readme.slice(start + 1);
  const end = rest.slice(4).search(/\n##{1,2} /);
  return end < 0 ? rest : rest.slice(0, end + 4);
}

interface Command {
  line: string;
  want: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The curl commands of a section's sh blocks with the status each promises. */
function curlCommands(text: string): Command[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)\n```/g)]
    .flatMap((m) => m[1].split("\n"))
    .filter((line) => line.startsWith("curl "))
    .map((line) => {
      const promise = /#\s*→\s*(\d{3})/.exec(line);
      expect(promise, `the README's command says what it answers (# → status): ${line}`).not.toBeNull();
      return { line, want: Number(promise![1]), ...parseCurl(line.replace(/\s+#.*$/, "")) };
    });
}

/** Words as a POSIX shell splits them (single and double quotes), $NAME left for later. */
function words(command: string): string[] {
  const out: string[] = [];
  for (const match of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(match[1] ?? match[2] ?? match[3]);
  return out;
}

function parseCurl(command: string): Omit<Command, "line" | "want"> {
  const parts = words(command).slice(1);
  let method = "GET";
  const headers: Record<string, string> = {};
  let body: string | undefined;
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
    } else if (part.startsWith("http")) url = part;
    else throw new Error(`the README's curl uses ${part}, which this test does not know`);
  }
  return { method, url, headers, body };
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-02" });
});
afterAll(() => mock?.close());

const vars: Record<string, string> = {};
const expand = (text: string) => text.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? `$${name}`);

async function run(command: Command) {
  const headers = Object.fromEntries(Object.entries(command.headers).map(([k, v]) => [k, expand(v)]));
  const url = expand(command.url).replace(README_BASE, mock.url);
  expect(url, "the command names every variable the text sets").not.toMatch(/\$/);
  const response = await fetch(url, { method: command.method, headers, body: command.body });
  const body = JSON.parse(await response.text());
  expect(response.status, `${command.line}\n${JSON.stringify(body).slice(0, 300)}`).toBe(command.want);
  expect(body.isSuccessful, "the envelope").toBe(command.want < 400);
  return body;
}

const approvedCount = async (key: string) =>
  (await (await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1&LeaveStatus=approved`, { headers: { authorization: `Bearer ${key}` } })).json()).data.totalRecords;

describe("README: Sandboxes for parallel tests", () => {
  test("every command answers as the README says, in order", async () => {
    const commands = curlCommands(subsection("Sandboxes for parallel tests"));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const command of commands) {
      const body = await run(command);
      if (command.method === "POST" && command.url.endsWith("/_mock/sandboxes")) {
        vars.SANDBOX_ID = body.data.id;
        vars.SANDBOX_KEY = body.data.keys.find((k: { demoKey: string }) => k.demoKey === DEMO_KEY.org1Full).key;
        vars.SANDBOX_ADMIN_KEY = body.data.keys.find((k: { demoKey: string }) => k.demoKey === DEMO_KEY.org1WebhooksAdmin).key;
      }
      if (command.url.includes("LeaveStatus=approved")) {
        expect(body.data.totalRecords, "one more approved request than the demo keys see").toBe((await approvedCount(DEMO_KEY.org1Full)) + 1);
      }
      if (command.url.endsWith("/reset")) expect(await approvedCount(vars.SANDBOX_KEY), "the start data again").toBe(await approvedCount(DEMO_KEY.org1Full));
      if (command.method === "DELETE") {
        const after = await fetch(`${mock.url}/v1/leavetype/list`, { headers: { authorization: `Bearer ${vars.SANDBOX_KEY}` } });
        expect(after.status, "its keys are now a 401").toBe(401);
      }
    }
  });
});

describe("README: Scripted faults", () => {
  test("every command answers as the README says, in order", async () => {
    const commands = curlCommands(subsection("Scripted faults"));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const command of commands) {
      const body = await run(command);
      if (command.want === 503) expect(body.message).toMatch(/^Scripted fault: listLeaveRequests answers 503/);
    }
  });
});

describe("README: the spec's examples and generated answers", () => {
  const openapi = loadOpenApi();
  /** The named examples of the operation at a path, by name. */
  const examplesByName = (path: string): Map<string, unknown> => {
    const examples = examplesAt(openapi, path);
    expect(examples, `the README's path ${path} is an operation of the spec`).toBeDefined();
    return new Map(examples!.map(({ name, value }) => [name, value]));
  };

  test("every command answers as the README says; an example it names is the spec's, with the spec's status", async () => {
    const commands = curlCommands(subsection("The spec's examples and generated answers: `Prefer`"));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      const body = await run(command);
      const name = /example=(\w+)/.exec(command.headers.prefer ?? "")?.[1];
      const examples = examplesByName(new URL(command.url).pathname);
      if (name && examples.has(name)) expect(body, `${command.line}: the spec's example ${name}`).toEqual(examples.get(name));
      if (name && !examples.has(name)) for (const known of examples.keys()) expect(body.message, `${command.line}: the 404 names ${known}`).toContain(known);
    }
  });

  test("the names the README and serve --help give are the spec's", () => {
    const spec = new Set(operationsOf(openapi).flatMap(([, path]) => [...examplesByName(path).keys()]));
    const text = subsection("The spec's examples and generated answers: `Prefer`").split("```")[0];
    const listed = new Set([...text.matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((word) => /^[a-z][A-Za-z]*$/.test(word)));
    expect([...listed].sort(), "the example names the README's text lists").toEqual([...spec].sort());
    const helped = [...SERVE_HELP.matchAll(/\b(success|[a-z]+[A-Z]\w*) on every/g)].map((m) => m[1]);
    expect(helped.length, "serve --help names example names").toBeGreaterThan(0);
    for (const name of helped) expect(spec.has(name), `serve --help names ${name}, which no response has`).toBe(true);
  });
});
