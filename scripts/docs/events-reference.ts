// The events reference: the AsyncAPI project's own renderer (@asyncapi/react-component, the one
// @asyncapi/html-template wraps) as its standalone browser bundle, with the bundled document and the
// styles inline. The page renders in the browser, as Redoc's does; building it is reading three
// files, where the HTML template took 11 to 32 s and brought a headless browser with it.
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import { injectNav } from "./layout.js";

const require = createRequire(import.meta.url);

/** The renderer's published browser files, as its README's standalone usage names them. */
const RENDERER = {
  script: "@asyncapi/react-component/browser/standalone/index.js",
  styles: "@asyncapi/react-component/styles/default.min.css",
};

/** What the reader sees opened: every message with its headers, payload and examples. */
const CONFIG = {
  show: { sidebar: true, info: true, servers: true, operations: true, messages: true, schemas: true, errors: true },
  expand: { messageExamples: true },
  sidebar: { showServers: "byDefault", showOperations: "byDefault" },
};

/** JSON that is safe inside a <script> element (no "</script>", no line separators JS rejects). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Pure: the page, given the document and the renderer's files; refuses anything loaded from elsewhere. */
export function renderEventsReference({ document, script, styles }: { document: any; script: string; styles: string }): string {
  const title = `${document?.info?.title ?? "Events"} · HR service contract`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<>&]/g, "")}</title>
<style>${styles}</style>
</head>
<body>
<div id="asyncapi" role="main">Loading the events reference…</div>
<script>${script.replace(/<\/script/gi, "<\\/script")}</script>
<script>
AsyncApiStandalone.render({ schema: ${scriptJson(document)}, config: ${scriptJson(CONFIG)} }, document.getElementById("asyncapi"));
</script>
</body>
</html>
`;
  const external = /<(link|script|img)[^>]+(href|src)="(https?:)?\/\//i.exec(html);
  if (external) throw new Error(`the events page loads an external asset: ${external[0].slice(0, 120)}`);
  // The renderer's prose styles wrap inline code in literal backticks; the code style marks it already.
  return injectNav(html, "events", "code::before,code::after{content:none !important;}");
}

export async function buildEventsReference({ specPath, outFile }: { specPath: string; outFile: string }): Promise<void> {
  const [documentText, script, styles] = await Promise.all([
    fs.readFile(specPath, "utf8"),
    fs.readFile(require.resolve(RENDERER.script), "utf8"),
    fs.readFile(require.resolve(RENDERER.styles), "utf8"),
  ]);
  await fs.writeFile(outFile, renderEventsReference({ document: JSON.parse(documentText), script, styles }));
}
