// The guide's "Your own data" commands run as written (in-process: hr-mock serve through its own
// flag parser and startMock on a free port, hr-mock export through its command with connections of
// its own as in its own process, the curl through fetch), and answer what the text says.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseServeArgs } from "../../mock/cli/commands/serve.js";
import { exportCommand } from "../../mock/cli/commands/export.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { section, shLines } from "./documents.js";
import { tempDir } from "../support/temp-dirs.js";
import { ownConnectionFetch } from "../support/own-connection-fetch.js";

const commands = shLines(section("Your own data: `--data` and `hr-mock export`").text);
const tmp = tempDir("hr-readme-data-");
const mocks: RunningMock[] = [];
afterAll(() => Promise.all(mocks.map((m) => m.close())));

/** A path as the reader's shell sees it: the repository's files from its root, new files in a scratch folder. */
const local = (file: string) => (fs.existsSync(path.join(repoRoot, file)) ? path.join(repoRoot, file) : path.join(tmp, file));

describe("the guide: Your own data", () => {
  it("has the commands this test runs", () => {
    expect(commands.map((c) => c.split(/\s+/).slice(0, 3).join(" "))).toEqual([
      "npx hr-mock serve",
      "curl -H \"Authorization:",
      "npx hr-mock export",
      "npx hr-mock export",
      "npx hr-mock serve",
    ]);
  });

  it("runs every command as written, against the mock the first one starts", async () => {
    let running: RunningMock | undefined;
    for (const command of commands) {
      const [tool, , verb, ...args] = command.split(/\s+/);
      if (tool === "curl") {
        const [, header, url] = /-H "([^"]+)" "([^"]+)"/.exec(command)!;
        const [name, value] = header.split(": ");
        const answer = (await (await fetch(url.replace("http://127.0.0.1:4010", running!.url), { headers: { [name]: value } })).json()) as { data: { daysRemaining: number; totalDays: number; daysTaken: number } };
        expect(answer.data, "the employee with no days left").toMatchObject({ daysRemaining: 0, totalDays: 10, daysTaken: 10 });
        await running!.trigger("leave.approved"); // so the export after triggers has a change in it
        continue;
      }
      const withPaths = args.map((a, i) => (args[i - 1] === "--data" || args[i - 1] === "--out" ? local(a) : a));
      if (verb === "serve") {
        const settings = parseServeArgs(withPaths);
        if (settings === "help") throw new Error(`${command}: not a serve command`);
        const mock = await startMock({ port: 0, data: settings.data, seed: settings.seed, today: settings.today });
        mocks.push(mock);
        running ??= mock;
        expect(mock.dataset.organizations.length, command).toBe(2);
      } else {
        const argv = withPaths.map((a) => a.replace("http://127.0.0.1:4010", running!.url));
        await exportCommand(argv, { stdout: { write: () => true }, fetch: ownConnectionFetch });
        const out = argv[argv.indexOf("--out") + 1];
        expect(fs.statSync(out).size, `${command} writes the file`).toBeGreaterThan(1000);
      }
    }
    // The last serve loaded the export taken after a trigger: the change is in it.
    const loaded = mocks[mocks.length - 1].dataset.organizations[0];
    expect(loaded.name).toBe("Small Team Ltd");
    expect(loaded.leaveRequests.map((r) => r.statusId)).toEqual(running!.dataset.organizations[0].leaveRequests.map((r) => r.statusId));
  });
});
