// What the assumptions page lists, gathered from the bundled documents: every `x-assumption`
// sentence with where it is written and what it applies to, and the provider's "not shown" items.
// Pure functions over the parsed JSON.
import { describeLocation, findRoots, resolveLocalRef, type Json, type JsonPath, type Root, type SpecKind } from "./spec-locations.js";

export interface SpecDocument {
  /** "OpenAPI" or "AsyncAPI", as the page names the document. */
  name: string;
  kind: SpecKind;
  doc: Json;
}

export interface Place {
  document: string;
  label: string;
}

export interface Mark {
  sentence: string;
  /** Where the sentence is written (the definition, not every copy or use). */
  where: Place[];
  /** The operations, webhooks and events it applies to; "every …" when it applies to all of a kind. */
  appliesTo: Place[];
  /** "api" when any read-API operation reaches it, otherwise "events". */
  section: "api" | "events";
}

interface Occurrence {
  sentence: string;
  /** The node the sentence is written on. */
  path: string[];
  /** The field holding it when that names the thing (x-transitions), otherwise "". */
  field: string;
  node: Json;
}

type SentencesOf = (node: Json) => Array<{ sentence: string; field: string }>;

/** Every occurrence of a sentence in the document tree as written (references not followed). */
function occurrences(doc: Json, sentencesOf: SentencesOf): Occurrence[] {
  const found: Occurrence[] = [];
  const walk = (node: Json, path: string[]) => {
    if (node === null || typeof node !== "object") return;
    for (const { sentence, field } of sentencesOf(node)) found.push({ sentence, path, field, node });
    for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
  };
  walk(doc, []);
  return found;
}

/** How canonical a place is: a component definition beats a message (whose traits are copied in), which beats an inline copy. */
const COMPONENT_ORDER = ["schemas", "parameters", "headers", "responses", "requestBodies", "securitySchemes", "messageTraits", "messages"];
function rank(path: JsonPath): number {
  if (path[0] === "components") {
    const order = COMPONENT_ORDER.indexOf(path[1] ?? "");
    return order < 0 ? COMPONENT_ORDER.length : order;
  }
  return COMPONENT_ORDER.length + 1;
}

/**
 * The places a sentence is defined: occurrences on equal nodes are copies of one definition (a
 * bundle writes a shared trait out under every message), so only the most canonical one counts.
 */
function definitions(found: Occurrence[]): Occurrence[] {
  const best = new Map<string, Occurrence>();
  for (const occurrence of found) {
    const key = JSON.stringify(occurrence.node);
    const current = best.get(key);
    if (!current || rank(occurrence.path) < rank(current.path)) best.set(key, occurrence);
  }
  return [...best.values()];
}

/** The sentences reachable from a root, following local `$ref`s. */
function sentencesReachable(doc: Json, root: Root, sentencesOf: SentencesOf): Set<string> {
  const reached = new Set<string>();
  const visitedRefs = new Set<string>();
  const walk = (node: Json, depth: number) => {
    if (node === null || typeof node !== "object") return;
    for (const { sentence } of sentencesOf(node)) reached.add(sentence);
    if (typeof node.$ref === "string" && !visitedRefs.has(node.$ref)) {
      visitedRefs.add(node.$ref);
      const target = resolveLocalRef(doc, node.$ref);
      if (target) walk(target.node, depth + 1);
    }
    for (const [key, child] of Object.entries(node)) {
      if (depth === 0 && root.skip.has(key)) continue;
      walk(child, depth === 0 ? 1 : depth + 1);
    }
  };
  let start = doc;
  for (const key of root.path) start = start?.[key];
  walk(start, 0);
  return reached;
}

const GROUP_NOUN: Record<Root["group"], string> = { operation: "operation", webhook: "webhook", event: "event", delivery: "delivery part" };

/** Lists roots, condensing a whole group ("every event (13)") when the sentence applies to all of it. */
function condense(document: string, roots: Root[], allRoots: Root[]): Place[] {
  const places: Place[] = [];
  for (const group of ["operation", "webhook", "event", "delivery"] as const) {
    const inGroup = roots.filter((root) => root.group === group);
    const total = allRoots.filter((root) => root.group === group).length;
    if (inGroup.length === 0) continue;
    if (inGroup.length === total && total > 3) places.push({ document, label: `every ${GROUP_NOUN[group]} (${total})` });
    else places.push(...inGroup.map((root) => ({ document, label: root.label })));
  }
  return places;
}

function collectMarks(documents: SpecDocument[], sentencesOf: SentencesOf): Mark[] {
  const marks = new Map<string, Mark & { groups: Set<Root["group"]>; definedIn: Set<SpecKind> }>();
  for (const { name, kind, doc } of documents) {
    const roots = findRoots(kind, doc);
    const reach = roots.map((root) => ({ root, sentences: sentencesReachable(doc, root, sentencesOf) }));
    const bySentence = new Map<string, Occurrence[]>();
    for (const occurrence of occurrences(doc, sentencesOf)) {
      bySentence.set(occurrence.sentence, [...(bySentence.get(occurrence.sentence) ?? []), occurrence]);
    }
    for (const [sentence, list] of bySentence) {
      const mark = marks.get(sentence) ?? { sentence, where: [], appliesTo: [], section: "events", groups: new Set(), definedIn: new Set() };
      for (const occurrence of definitions(list)) {
        const field = occurrence.field.replace(/^x-/, "");
        const label = describeLocation(kind, doc, occurrence.path) + (field ? ` · ${field}` : "");
        if (!mark.where.some((place) => place.document === name && place.label === label)) mark.where.push({ document: name, label });
      }
      const using = reach.filter(({ sentences }) => sentences.has(sentence)).map(({ root }) => root);
      mark.appliesTo.push(...condense(name, using, roots));
      for (const root of using) mark.groups.add(root.group);
      mark.definedIn.add(kind);
      marks.set(sentence, mark);
    }
  }
  return [...marks.values()].map(({ groups, definedIn, ...mark }) => ({
    ...mark,
    // The read API section holds what its operations reach, and what the OpenAPI document defines that nothing reaches.
    section: groups.has("operation") || (groups.size === 0 && definedIn.has("openapi")) ? "api" : "events",
  }));
}

const assumptionOf: SentencesOf = (node) =>
  typeof node["x-assumption"] === "string" && node["x-assumption"].trim() !== "" ? [{ sentence: node["x-assumption"].trim(), field: "" }] : [];

/** Every `x-assumption` of the documents, one entry per sentence, in document order. */
export function collectAssumptions(documents: SpecDocument[]): Mark[] {
  return collectMarks(documents, assumptionOf);
}

/**
 * Text units of a Markdown description: paragraphs joined across wrapped lines, list items, and
 * table rows as "cell: cell".
 */
export function textUnits(markdown: string): string[] {
  const units: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) units.push(paragraph.join(" "));
    paragraph = [];
  };
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    if (line === "" || /^#{1,6}\s/.test(line)) {
      flush();
    } else if (line.startsWith("|")) {
      flush();
      const cells = line.split("|").map((cell) => cell.trim()).filter((cell) => cell !== "");
      if (!cells.every((cell) => /^:?-+:?$/.test(cell))) units.push(cells.join(": "));
    } else if (/^([-*+]|\d+\.)\s/.test(line)) {
      flush();
      paragraph.push(line.replace(/^([-*+]|\d+\.)\s+/, ""));
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return units;
}

/** Sentences of a text unit: split after . ! ? followed by a capital, a backtick or a parenthesis. */
export function sentences(unit: string): string[] {
  return unit
    .split(/(?<=[.!?])\s+(?=[A-Z`(])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

const NOT_SHOWN = /not shown/i;
const PROSE_KEYS = (key: string) => key === "description" || key === "summary" || (key.startsWith("x-") && key !== "x-assumption");

const notShownOf: SentencesOf = (node) => {
  const found: Array<{ sentence: string; field: string }> = [];
  for (const [key, value] of Object.entries<Json>(node)) {
    if (!PROSE_KEYS(key) || typeof value !== "string" || !NOT_SHOWN.test(value)) continue;
    for (const unit of textUnits(value)) {
      for (const sentence of sentences(unit)) {
        if (NOT_SHOWN.test(sentence)) found.push({ sentence, field: key === "description" || key === "summary" ? "" : key });
      }
    }
  }
  return found;
};

/** The sentences of descriptions (and other prose) that say something is "not shown" by the provider. */
export function collectNotShown(documents: SpecDocument[]): Mark[] {
  return collectMarks(documents, notShownOf);
}
