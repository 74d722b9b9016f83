// The README and every guide tell the truth: their snippets are the repository's files (type-checked
// or run by the tests), their commands exist as written (npm scripts, the packages' bins with flags
// their --help lists, MSW's init), and the key table is the mock's.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_JUNIT, FLAGS as CONTRACT_FLAGS, USAGE as CONTRACT_HELP } from "../../src/contract/options.js";
import { DEFAULT_RECEIVER_JUNIT, RECEIVER_FLAGS, RECEIVER_USAGE } from "../../src/contract/receiver/options.js";
import { DEFAULT_PACT_JUNIT, PACT_USAGE } from "../../src/contract/pact/cli.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { HELP } from "../../mock/cli/main.js";
import { SERVE_HELP } from "../../mock/cli/commands/serve.js";
import { EXPORT_HELP } from "../../mock/cli/commands/export.js";
import { RECEIVE_HELP } from "../../mock/cli/commands/receive.js";
import { SCENARIO_HELP } from "../../mock/cli/commands/scenario.js";
import { TRIGGER_HELP } from "../../mock/cli/commands/trigger.js";
import { RESEND_HELP } from "../../mock/cli/commands/resend.js";
import { PROXY_HELP } from "../../mock/cli/commands/proxy.js";
import { COVERAGE_HELP } from "../../mock/cli/commands/coverage.js";
import { USAGE as DIFF_HELP } from "../../mock/diff/cli.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { MOCK_ENTRIES_BEYOND_EXPORTS } from "../../scripts/lib/package-layout.js";
import { commands, DOCUMENTS, fencedBlocks, flagsOf, README, section, words, type Document } from "./documents.js";
import { containerCommandProblems } from "../support/container-commands.js";

/** The flags hr-contract pact --help names. */
const PACT_FLAGS = new Set([...PACT_USAGE.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const mockPkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8"));
const OURS: Array<{ name: string; version: string }> = [pkg, mockPkg];

/**
 * What `hr-mock <command> --help` prints, by command: the texts the commands print (read here, not
 * from child processes; test/mock-server/cli.test.ts runs the bin itself). The first test below holds
 * this list to the commands `hr-mock --help` names.
 */
const MOCK_HELP: Record<string, string> = { serve: SERVE_HELP, receive: RECEIVE_HELP, trigger: TRIGGER_HELP, scenario: SCENARIO_HELP, export: EXPORT_HELP, diff: DIFF_HELP, resend: RESEND_HELP, proxy: PROXY_HELP, coverage: COVERAGE_HELP };
/** The npm scripts whose options the documents pass after `--`, with the flags each takes. */
const SCRIPT_FLAGS: Record<string, (flag: string) => boolean> = { contract: (flag) => CONTRACT_FLAGS.has(flag), diff: (flag) => DIFF_HELP.includes(flag) };
/** `msw init --help`, read once from MSW's own bin: the documents' one command of another package. */
let mswInitHelp = "";

beforeAll(async () => {
  ({ stdout: mswInitHelp } = await promisify(execFile)(process.execPath, [path.join(repoRoot, "node_modules/msw/cli/index.js"), "init", "--help"], { timeout: 120_000 }));
}, 40_000);

/** What is wrong with one command as a reader would type it; [] when it exists as written. */
function problemsOf(command: string): string[] {
  const [tool, verb, ...rest] = words(command);
  const bins = { ...pkg.bin, ...mockPkg.bin } as Record<string, string>;
  if (tool === "npm") {
    if (verb === "run") {
      if (!(rest[0] in pkg.scripts)) return [`${command}: no script ${rest[0]}`];
      const takes = SCRIPT_FLAGS[rest[0]];
      return takes ? flagsOf(command).filter((flag) => !takes(flag)).map((flag) => `${command}: npm run ${rest[0]} takes no ${flag}`) : [];
    }
    if (verb === "start" || verb === "test") return verb in pkg.scripts ? [] : [`${command}: no ${verb} script`];
    if (verb === "ci" || verb === "pack") return [];
    if (verb === "install") {
      // Neither package is on the registry yet: a document installs the tarballs npm pack writes.
      const tarballs = OURS.map((p) => `${p.name}-${p.version}.tgz`);
      return rest.filter((word) => !word.startsWith("-") && !tarballs.includes(path.basename(word))).map((word) => `${command}: ${word} is not a tarball npm pack writes (${tarballs.join(", ")})`);
    }
    return [`${command}: unexpected npm ${verb}`];
  }
  if (tool === "npx") {
    if (verb === "msw") {
      if (rest[0] !== "init") return [`${command}: only msw init is checked`];
      const problems = flagsOf(command).filter((flag) => flag !== "--no-save" && !mswInitHelp.includes(flag)).map((flag) => `${command}: not in msw init --help: ${flag}`);
      // Without --save or --no-save, msw init asks a question and a script stops on it.
      if (!/--(no-)?save\b/.test(command)) problems.push(`${command}: give --save or --no-save, or msw init stops on a prompt`);
      return problems;
    }
    // Pact's own validator, a pinned dev dependency here that test/pact runs on the same files.
    if (verb === "@pactflow/swagger-mock-validator") return verb in pkg.devDependencies ? [] : [`${command}: ${verb} is no dev dependency`];
    if (!(verb in bins)) return [`${command}: no bin ${verb} in either package`];
    if (verb === "hr-contract") {
      const [flags, which] = rest[0] === "receiver" ? [RECEIVER_FLAGS, "hr-contract receiver"] : rest[0] === "pact" ? [PACT_FLAGS, "hr-contract pact"] : [CONTRACT_FLAGS, "hr-contract"];
      return flagsOf(command).filter((flag) => !flags.has(flag)).map((flag) => `${command}: ${which} takes no ${flag}`);
    }
    const help = MOCK_HELP[rest[0]] ?? "";
    if (!help.startsWith(`Usage: hr-mock ${rest[0]}`)) return [`${command}: hr-mock has no command ${rest[0]}`];
    return flagsOf(command).filter((flag) => !help.includes(flag)).map((flag) => `${command}: not in hr-mock ${rest[0]} --help: ${flag}`);
  }
  // The sandbox walkthrough reads the create answer's fields with node (test/readme/sandboxes-readme.test.ts runs these lines).
  if (tool === "export" && /^export [A-Z_]+=\$\(node -p '[^']+'\)$/.test(command)) return [];
  if (tool === "curl") return [];
  // Pact's own broker CLI, shown as a pipeline runs it (the Pact guide says these are not run here).
  if (tool === "pact-broker" && (verb === "publish" || verb === "can-i-deploy")) return [];
  const container = containerCommandProblems(words(command));
  if (container) return container;
  // A CI script's own shell: keeping a status or a process id, waiting, stopping, retrying.
  if (/^[A-Z_]+=\$[!?]$/.test(command) || /^(kill -TERM|wait) \$[A-Z_]+$/.test(command) || /^exit \$\(\(/.test(command)) return [];
  if (/^for \w+ in \$\(seq \d+ \d+\); do curl /.test(command) || command === "break; sleep 0.2; done") return [];
  // Profiling the built command line (the contributors' guide): node's own --cpu-prof flags, a built
  // entry of the mock, then an hr-mock command line as above.
  if (tool === "node" && command.includes("--cpu-prof")) {
    const argv = words(command.replace(/\s*>\s*\S+$/, ""));
    const entry = argv.findIndex((word) => word.endsWith(".js"));
    const file = argv[entry] ?? "";
    const built = MOCK_ENTRIES_BEYOND_EXPORTS.map((dist) => `mock/${dist}`);
    if (!built.includes(file)) return [`${command}: ${file} is not an entry npm run build writes (${built.join(", ")})`];
    if (!argv.slice(1, entry).every((flag) => /^--cpu-prof(-dir=\S+)?$/.test(flag))) return [`${command}: only node's --cpu-prof flags are checked`];
    const [sub = "serve", ...flags] = argv.slice(entry + 1);
    const help = sub.startsWith("-") ? HELP : (MOCK_HELP[sub] ?? "");
    if (!help) return [`${command}: hr-mock has no command ${sub}`];
    return flagsOf(flags.join(" ")).filter((flag) => !help.includes(flag) && flag !== "--help").map((flag) => `${command}: not in hr-mock ${sub} --help: ${flag}`);
  }
  return [`${command}: an unchecked command`];
}

it("checks flags against every command hr-mock --help names", () => {
  const named = [...HELP.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
  expect(Object.keys(MOCK_HELP).sort(), "commands of hr-mock --help without a help text here").toEqual(named.sort());
});

/**
 * The repository file a path printed by a --help stands for, or a problem: a path of the repository
 * (a folder ends in /; a <placeholder> stands for what its folder holds), a package's built file
 * (./node_modules/<package>/dist/…, or dist/…: dist/ keeps the repository's layout), or a package
 * export (<package>/<name>, which must be in its exports map). Files a command writes are outputs.
 */
function helpPathProblem(token: string, outputs: ReadonlySet<string>): string | undefined {
  if (outputs.has(token)) return undefined;
  let file = token.replace(/^\.\/node_modules\/(?=hr-service-)/, "");
  const exported = /^(hr-service-(?:mock|contract))\/(?!dist\/)(.+)$/.exec(file);
  if (exported) {
    const manifest = exported[1] === mockPkg.name ? mockPkg : pkg;
    const target = manifest.exports[`./${exported[2]}`];
    if (typeof target !== "string") return `${token}: not an export of ${exported[1]}`;
    file = target;
  }
  file = file.replace(/^hr-service-(?:mock|contract)\//, "").replace(/^\.\//, "").replace(/^dist\//, "").split("<")[0];
  return fs.existsSync(path.join(repoRoot, file)) ? undefined : `${token}: no ${file} in the repository`;
}

/** Paths in a help text: tokens with a / that end in a file name with an extension, or in / (a folder). */
const helpPaths = (text: string) =>
  [...text.matchAll(/(?<![\w/:.<>$-])(?:\.\/)?[\w.-]+\/[\w./<>-]*/g)].map((m) => m[0].replace(/\.$/, "")).filter((token) => token.endsWith("/") || /\.[a-z]{2,5}$/.test(token));

describe("every path a --help prints exists", () => {
  const helps: [string, string][] = [["hr-mock --help", HELP], ...Object.entries(MOCK_HELP).map(([command, text]): [string, string] => [`hr-mock ${command} --help`, text]), ["hr-contract --help", CONTRACT_HELP], ["hr-contract receiver --help", RECEIVER_USAGE], ["hr-contract pact --help", PACT_USAGE]];
  const outputs = new Set([DEFAULT_JUNIT, DEFAULT_RECEIVER_JUNIT, DEFAULT_PACT_JUNIT]);

  it.each(helps)("%s", (_name, text) => {
    expect(helpPaths(text).map((token) => helpPathProblem(token, outputs)).filter(Boolean)).toEqual([]);
  });

  it("finds the paths the helps print, and knows a missing one", () => {
    expect(helps.flatMap(([, text]) => helpPaths(text)).length, "paths printed by the helps").toBeGreaterThan(5);
    const cases: [string, { given: string; want: RegExp | undefined }][] = [
      ["a repository file", { given: "mock/control/openapi/openapi.yaml", want: undefined }],
      ["a file that is gone", { given: "mock/control/openapi.yaml", want: /no mock\/control\/openapi\.yaml in the repository/ }],
      ["an installed file", { given: "./node_modules/hr-service-mock/dist/generated/data-file.schema.json", want: undefined }],
      ["a package export", { given: "hr-service-mock/scenario.schema.json", want: undefined }],
      ["no such export", { given: "hr-service-mock/nope.json", want: /not an export of hr-service-mock/ }],
      ["a folder with a placeholder", { given: "contract-releases/<version>/", want: undefined }],
      ["an output", { given: DEFAULT_JUNIT, want: undefined }],
    ];
    for (const [name, { given, want }] of cases) {
      const problem = helpPathProblem(given, outputs);
      if (want) expect(problem, name).toMatch(want);
      else expect(problem, name).toBeUndefined();
    }
  });
});

it("the command check refuses what does not exist", () => {
  const cases: Array<[string, { given: string; want: RegExp | undefined }]> = [
    ["a script", { given: "npm run lint", want: undefined }],
    ["no such script", { given: "npm run nope", want: /no script nope/ }],
    ["a flag serve lacks", { given: "npx hr-mock serve --webhook-ulr x", want: /not in hr-mock serve --help: --webhook-ulr/ }],
    ["a package by name, not yet on the registry", { given: "npm install hr-service-contract", want: /not a tarball npm pack writes/ }],
    ["a tarball of another version", { given: "npm install ./hr-service-contract-9.9.9.tgz", want: /not a tarball/ }],
    ["this version's tarball", { given: `npm install ../x/${pkg.name}-${pkg.version}.tgz`, want: undefined }],
    ["msw init that prompts", { given: "npx msw init public/", want: /--save or --no-save/ }],
    ["msw init with --save", { given: "npx msw init public/ --save", want: undefined }],
    ["a contract flag that does not exist", { given: "npm run contract -- --base-url URL --verbose", want: /takes no --verbose/ }],
    ["another tool", { given: "jq .data sandbox.json", want: /unchecked/ }],
  ];
  for (const [name, { given, want }] of cases) {
    const problems = problemsOf(given);
    if (want) expect(problems.join("\n"), name).toMatch(want);
    else expect(problems, name).toEqual([]);
  }
});

describe.each(DOCUMENTS.map((doc) => [doc.file, doc] as [string, Document]))("%s", (file, doc) => {
  const blocks = fencedBlocks(doc.text);

  it.each(blocks.filter((block) => block.snippet).map((block) => [block.snippet!, block.body] as [string, string]))(
    "snippet %s is the repository's file, verbatim",
    (snippet, text) => {
      const source = fs.readFileSync(path.join(repoRoot, snippet), "utf8").trimEnd();
      expect(text, `${file}'s copy of ${snippet} differs from the file; paste the file again`).toBe(source);
    },
  );

  // A text block shows what a command prints (a guide's own test holds it to the command's output).
  it("shows code only as a snippet of a tested file (sh and text blocks aside)", () => {
    const loose = blocks.filter((block) => block.lang !== "sh" && block.lang !== "text" && !block.snippet).map((block) => `${block.lang || "(no language)"}: ${block.body.slice(0, 60)}`);
    expect(loose, `${file}: code blocks without a <!-- snippet: FILE --> line`).toEqual([]);
  });

  it("names only npm scripts that exist", () => {
    const named = [...doc.text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    const missing = [...new Set(named)].filter((name) => !(name in pkg.scripts));
    expect(missing, `${file} names npm scripts that package.json does not have`).toEqual([]);
  });

  it("shows only commands that exist: npm scripts, this repository's packages, their bins and flags", () => {
    const problems = commands(doc.text).flatMap(problemsOf);
    expect(problems, `${file}: commands that do not exist as written`).toEqual([]);
  });
});

it("the documents have commands and snippets to check", () => {
  expect(DOCUMENTS.flatMap((doc) => commands(doc.text)).length, "commands in sh blocks").toBeGreaterThan(40);
  const snippets = DOCUMENTS.flatMap((doc) => fencedBlocks(doc.text).flatMap((block) => (block.snippet ? [block.snippet] : [])));
  expect(new Set(snippets), "snippets of the README and the guides").toEqual(
    new Set(["test/client/readme-snippet.ts", "test/readme/sandbox-snippet.test.ts", "test/readme/msw-snippet.test.ts", "test/readme/receiver-snippet.ts", "test/readme/edge-snippet.ts", "examples/scenarios/leave-approved.yaml", "test/guides/check-receiver-snippet.test.ts", "test/guides/proxy-snippet.test.ts", "test/guides/verify-snippet.test.ts", "examples/load-balancer/nginx.conf", "examples/load-balancer/haproxy.cfg", "test/guides/types-snippet.ts", "examples/prometheus/prometheus.yml", "mock/state/open.ts", "mock/state/kept.ts", "test/playwright/fixture/leave-screen.spec.ts"]),
  );
});

it("the demo keys table lists every demo key with its organisation and permissions, as the mock defines them", () => {
  const { doc, text } = section("Demo API keys");
  for (const key of DEMO_KEYS) {
    const row = text.split("\n").find((line) => line.startsWith(`| \`${key.key}\``));
    expect(row, `${doc.file} has no row for demo key ${key.key}`).toBeDefined();
    expect(row, `${key.key}: organisation`).toContain(`| ${key.organisation} |`);
    const permissions = key.permissions.length ? key.permissions.join(", ") : "none";
    expect(row, `${key.key}: permissions`).toContain(`| ${permissions} |`);
  }
});

it("the README gives the two set-up commands", () => {
  expect(README.text).toContain("npm ci && npm start");
  expect(README.text).toContain("npm ci && npm test");
  expect(pkg.scripts.start, "npm start").toBeDefined();
  expect(pkg.scripts.test, "npm test").toBeDefined();
});
