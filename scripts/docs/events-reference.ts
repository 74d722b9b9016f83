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

/**
 * The renderer gives each message the id `message-<key>` (its key in the document) but links to it
 * from its sidebar as `message-<name>`: with keys such as leaveApproved and names such as
 * leave.approved, every sidebar link to an event would point at nothing. The copy it renders has
 * each message keyed by its name (the event type), references rewritten to match, so the anchor of
 * an event is `#message-<event type>` for the sidebar and for links from other pages alike.
 */
export function keyMessagesByName(document: any): any {
  const renames = new Map<string, string>();
  const rename = (messages: Record<string, any> | undefined, prefix: string) =>
    messages &&
    Object.fromEntries(
      Object.entries(messages).map(([key, message]) => {
        const name = typeof message?.name === "string" ? message.name : key;
        if (name !== key) renames.set(`${prefix}/${key}`, `${prefix}/${name}`);
        return [name, message];
      }),
    );
  const copy = structuredClone(document);
  for (const [id, channel] of Object.entries<any>(copy.channels ?? {})) {
    if (channel?.messages) channel.messages = rename(channel.messages, `#/channels/${id}/messages`);
  }
  if (copy.components?.messages) copy.components.messages = rename(copy.components.messages, "#/components/messages");
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? (renames.get(value) ?? value) : rewrite(value)]),
    );
  };
  return rewrite(copy);
}

/** Pure: the page, given the document and the renderer's files; refuses anything loaded from elsewhere. */
export function renderEventsReference({ document, script, styles, nav }: { document: any; script: string; styles: string; nav: string }): string {
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
AsyncApiStandalone.render({ schema: ${scriptJson(keyMessagesByName(document))}, config: ${scriptJson(CONFIG)} }, document.getElementById("asyncapi"));
</script>
</body>
</html>
`;
  const external = /<(link|script|img)[^>]+(href|src)="(https?:)?\/\//i.exec(html);
  if (external) throw new Error(`the events page loads an external asset: ${external[0].slice(0, 120)}`);
  // The renderer's prose styles wrap inline code in literal backticks; the code style marks it already.
  // The renderer's server panel sets the address (a URL template, one long word) and its badges inline; on
  // a phone's width the address must break or the whole page scrolls sideways.
  return injectNav(html, nav, "code::before,code::after{content:none !important;}#asyncapi .font-mono{overflow-wrap:anywhere;}");
}

export async function buildEventsReference({ specPath, outFile, nav }: { specPath: string; outFile: string; nav: string }): Promise<void> {
  const [documentText, script, styles] = await Promise.all([
    fs.readFile(specPath, "utf8"),
    fs.readFile(require.resolve(RENDERER.script), "utf8"),
    fs.readFile(require.resolve(RENDERER.styles), "utf8"),
  ]);
  await fs.writeFile(outFile, renderEventsReference({ document: JSON.parse(documentText), script, styles, nav }));
}
