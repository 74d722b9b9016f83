// npm run generate [-- --out DIR]: bundles both documents and writes the types and the client.
// check-generated.ts runs the same steps into a temporary folder and compares.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import YAML from "yaml";
import { bundleApi, bundleApiWithSources, repoRoot } from "./generate/bundle.js";
import { renderBundleSources } from "../mock/diff/bundle-sources.js";
import { restoreComponentSchemaRefs, restoreOperationMessageRefs } from "./generate/asyncapi-refs.js";
import { renderApiTypes } from "./generate/types.js";
import { renderClient } from "./generate/client.js";
import { renderFailure200Variant } from "./generate/failure-200.js";
import { renderEventTypes } from "./generate/events.js";
import { renderScenarioSchema } from "./generate/scenario.js";
import { renderDataFileSchema, renderDataFileTypes } from "./generate/data-file.js";
import { renderControlFacts, renderFacts, renderWebhookFacts } from "./generate/facts.js";
import { renderRoutes } from "./generate/routes.js";
import { renderPrismOperations } from "./generate/prism-operations.js";
import { renderMswSpec } from "./generate/msw-spec.js";
import { renderFakerNames } from "./generate/faker-names.js";
import { renderCoverageTypes } from "./generate/coverage.js";

export async function generate(outDir: string, log: (line: string) => void = () => {}): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(outDir, name), text.endsWith("\n") ? text : text + "\n");
    written.push(name);
  };
  log("bundling openapi/openapi.yaml");
  const { document: openapi, sources: openapiSources } = await bundleApiWithSources("hr-api");
  write("openapi.json", JSON.stringify(openapi, null, 2));
  write("openapi.yaml", YAML.stringify(openapi, { lineWidth: 0 }));
  log("writing openapi.failure-200.{json,yaml} (the read API when failures are answered with HTTP 200)");
  const failure200 = renderFailure200Variant(openapi);
  write("openapi.failure-200.json", JSON.stringify(failure200, null, 2));
  write("openapi.failure-200.yaml", YAML.stringify(failure200, { lineWidth: 0 }));
  log("bundling asyncapi/asyncapi.yaml");
  const source = YAML.parse(fs.readFileSync(path.join(repoRoot, "asyncapi/asyncapi.yaml"), "utf8"));
  const events = await bundleApiWithSources("hr-events");
  const asyncapi = restoreComponentSchemaRefs(restoreOperationMessageRefs(events.document, source));
  write("asyncapi.json", JSON.stringify(asyncapi, null, 2));
  write("asyncapi.yaml", YAML.stringify(asyncapi, { lineWidth: 0 }));
  log("writing bundle-sources.json (the files each bundle was made from, so npm run diff can tell a stale bundle)");
  write("bundle-sources.json", JSON.stringify(await renderBundleSources({ "openapi.json": openapiSources, "asyncapi.json": events.sources }, repoRoot), null, 2));
  log("bundling mock/control/openapi/openapi.yaml");
  const control = await bundleApi("mock-control");
  write("control-openapi.json", JSON.stringify(control, null, 2));
  log("writing prism-operations.json (Prism's reader's output for both documents, so the mock does not read them at every start)");
  const prismOperations = await renderPrismOperations({ "openapi.json": path.join(outDir, "openapi.json"), "control-openapi.json": path.join(outDir, "control-openapi.json") });
  write("prism-operations.json", JSON.stringify(prismOperations));
  log("writing msw-spec.json (what the MSW handlers read of both documents, for the operations they serve)");
  write("msw-spec.json", JSON.stringify(renderMswSpec({ "openapi.json": openapi, "control-openapi.json": control }, prismOperations)));
  log("writing faker-names.json (the English names the dataset's faker reads, from faker's locale)");
  write("faker-names.json", JSON.stringify(renderFakerNames()));
  log("writing control-api.d.ts (openapi-typescript)");
  write("control-api.d.ts", await renderApiTypes(control));
  log("writing control-facts.ts (the control API's enums, bounds, path prefix and operations' paths)");
  write("control-facts.ts", renderControlFacts(control));
  log("writing coverage.ts (the coverage report's types, from the control document's CoverageReport)");
  write("coverage.ts", await renderCoverageTypes(control));
  log("writing routes.ts (every operation of both documents: method, path, tags)");
  write("routes.ts", renderRoutes(openapi, control));
  log("writing scenario.schema.json (hr-mock scenario files, from the control API's trigger body)");
  write("scenario.schema.json", JSON.stringify(renderScenarioSchema(control), null, 2));
  log("writing api.d.ts (openapi-typescript)");
  write("api.d.ts", await renderApiTypes(openapi));
  log("writing events.ts (openapi-typescript over the event schemas)");
  write("events.ts", await renderEventTypes(asyncapi));
  log("writing facts.ts (enums, parameter defaults and bounds, the rate limit)");
  write("facts.ts", renderFacts(openapi));
  log("writing webhook-facts.ts (delivery headers and rules, the receiver's answer to a failed signature check)");
  write("webhook-facts.ts", renderWebhookFacts(asyncapi, openapi));
  log("writing data-file.schema.json and data-file.d.ts (mock/data/data-file.schema.yaml, the API's fields copied)");
  const dataFile = renderDataFileSchema(openapi);
  write("data-file.schema.json", JSON.stringify(dataFile, null, 2));
  write("data-file.d.ts", await renderDataFileTypes(dataFile));
  log("writing client.ts");
  write("client.ts", renderClient(openapi));
  return written;
}

async function main() {
  const { values } = parseArgs({
    options: { out: { type: "string", default: path.join(repoRoot, "generated") }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log("Usage: npm run generate [-- --out DIR]\nBundles openapi/, asyncapi/ and mock/control/openapi/ and writes openapi.{json,yaml}, openapi.failure-200.{json,yaml}, asyncapi.{json,yaml}, bundle-sources.json, control-openapi.json, prism-operations.json, control-api.d.ts, control-facts.ts, coverage.ts, routes.ts, scenario.schema.json, facts.ts, webhook-facts.ts, api.d.ts, events.ts and client.ts into DIR (default generated/).");
    return;
  }
  const files = await generate(path.resolve(values.out!), (line) => console.error(`generate: ${line}`));
  console.error(`generate: wrote ${files.length} files to ${path.relative(process.cwd(), values.out!) || "."}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`generate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
