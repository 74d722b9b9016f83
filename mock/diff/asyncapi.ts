// The AsyncAPI document beyond the messages' shapes: servers, channels, operations, security,
// messages added or removed, compared by @asyncapi/diff on dereferenced copies (as it requires),
// with the delivery's extension fields classified by the package's rules.
import { diff, type DiffOutputItem } from "@asyncapi/diff";
import type { Change } from "./contract.js";
import { show, verb } from "./describe.js";
import { dereference, type Json } from "./json.js";
import { classifyAsyncApi } from "./rules.js";

const decode = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * Changes the message view reports better (headers, payload), copies of what is reported elsewhere
 * (components, and the dereferenced copies of channels, messages and servers), assumption marks.
 */
function covered(path: string): boolean {
  return (
    path.startsWith("/components/") ||
    /^\/operations\/[^/]+\/(messages|channel)\/./.test(path) ||
    /^\/channels\/[^/]+\/servers\/./.test(path) ||
    /^\/channels\/[^/]+\/messages\/[^/]+\/(payload|headers|traits\/[^/]+\/headers)(\/|$)/.test(path) ||
    /\/x-assumption$/.test(path)
  );
}

/** "event leave.approved" for a path inside a channel's message, else the path's first two segments. */
function place(path: string, before: Json, after: Json): { place: string; rest: string } {
  const segments = path.split("/").slice(1).map(decode);
  if (segments[0] === "channels" && segments[2] === "messages" && segments[3] !== undefined) {
    const message = after?.channels?.[segments[1]]?.messages?.[segments[3]] ?? before?.channels?.[segments[1]]?.messages?.[segments[3]];
    return { place: `event ${message?.name ?? segments[3]}`, rest: segments.slice(4).join(".") };
  }
  if (segments[0] === "operations" || segments[0] === "channels" || segments[0] === "servers") {
    return { place: `${segments[0].replace(/s$/, "")} ${segments[1] ?? ""}`.trim(), rest: segments.slice(2).join(".") };
  }
  return { place: segments[0] ?? "document", rest: segments.slice(1).join(".") };
}

export function compareAsyncApiDocument(before: Json, after: Json): Change[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const [a, b] = [dereference(before), dereference(after)];
  const output = diff(a, b).getOutput() as { changes: DiffOutputItem[] };
  const changes: Change[] = [];
  for (const change of output.changes) {
    if (covered(change.path)) continue;
    const where = place(change.path, a, b);
    const values = change.action === "edit" ? ` ${show(change.before)} → ${show(change.after)}` : "";
    const what = where.rest ? `${where.rest} ${verb(change.action)}${values}` : `${where.place.split(" ")[0]} ${verb(change.action)}`;
    const verdict = classifyAsyncApi(change.type, change.path, change.before, change.after);
    changes.push({ kind: verdict.kind, document: "AsyncAPI", scope: "events", place: where.place, what, why: verdict.why, id: `AsyncAPI ${where.place}: ${what}` });
  }
  return changes;
}
