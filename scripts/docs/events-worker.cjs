// Child process of the docs build: renders the AsyncAPI document with @asyncapi/html-template
// through the generator library. It runs apart from the build because the template's server-side
// render sets up a global DOM and because of the React fix below; both stay in this process. Plain
// CommonJS: under tsx's loader the thousands of modules it loads take twice as long.
//
// Usage: node scripts/docs/events-worker.cjs <asyncapi file> <output dir> <output file name>
"use strict";
const Module = require("node:module");
const path = require("node:path");

/**
 * The template renders with its own React 18 (react-dom/server), while @asyncapi/react-component
 * resolves the hoisted top-level React, which the install made 19; React 18 cannot render 19's
 * elements ("Objects are not valid as a React child"). Every `react`/`react-dom` request of this
 * process is sent to the template's copy, so one React does all the rendering. When both resolve
 * to the same copy this changes nothing.
 */
function useTemplateReact(templateDir) {
  const own = {};
  for (const name of ["react", "react-dom"]) own[name] = path.dirname(require.resolve(`${name}/package.json`, { paths: [templateDir] }));
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const match = /^(react|react-dom)(\/.*)?$/.exec(request);
    return original.call(this, match ? own[match[1]] + (match[2] ?? "") : request, ...rest);
  };
}

/**
 * html-template 3.5 declares generator ">=2.0.0 <4.0.0"; the top-level @asyncapi/generator here is
 * 1.17 (for @asyncapi/cli), and the 2.x library the CLI uses for templates is installed as the
 * alias `generator-v2`. Prefer a 2.x @asyncapi/generator when one is installed, else the alias.
 */
function loadGenerator() {
  const { version } = require("@asyncapi/generator/package.json");
  return Number(version.split(".")[0]) >= 2 ? require("@asyncapi/generator") : require("generator-v2");
}

async function main() {
  const [input, outDir, outFilename] = process.argv.slice(2);
  if (!input || !outDir || !outFilename) throw new Error("usage: events-worker.cjs <asyncapi file> <output dir> <output file name>");
  const templateDir = path.dirname(require.resolve("@asyncapi/html-template/package.json"));
  useTemplateReact(templateDir);
  const Generator = loadGenerator();
  const generator = new Generator(templateDir, outDir, {
    forceWrite: true,
    // The template's published __transpiled files require modules by absolute paths of the machine
    // that published it, so they fail on a fresh install: compile them here (a few seconds).
    compile: true,
    templateParams: { singleFile: "true", outFilename },
  });
  await generator.generateFromFile(input);
}

main().catch((error) => {
  // The parser's diagnostics (which $ref failed) are the useful part of a failure.
  const errors = (error && Array.isArray(error.diagnostics) ? error.diagnostics : [])
    .filter((d) => d.severity === 0)
    .map((d) => `${d.message} at ${(d.path || []).join("/")}`);
  console.error(`${error instanceof Error ? error.message : String(error)}${errors.length ? ` (${errors.join("; ")})` : ""}`);
  process.exit(1);
});
