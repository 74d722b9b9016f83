// Assumption changes: every `x-assumption` sentence of a document by the place it is written,
// compared so that a user sees a guess added, dropped (often because the provider documented the
// fact) or reworded. Pure functions over the bundled documents.
import type { AssumptionChange } from "./contract.js";
import { pointer, type Json } from "./json.js";

/** Sentence → the JSON pointers that carry it (a bundle writes a shared trait out several times). */
function assumptionMarks(doc: Json): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  const walk = (node: Json, path: Array<string | number>) => {
    if (node === null || typeof node !== "object") return;
    const mark = node["x-assumption"];
    if (typeof mark === "string" && mark.trim() !== "") marks.set(mark.trim(), [...(marks.get(mark.trim()) ?? []), `/${pointer(path)}`]);
    for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
  };
  walk(doc, []);
  return marks;
}

export function compareAssumptions(before: Json, after: Json, document: AssumptionChange["document"]): AssumptionChange[] {
  const [was, now] = [assumptionMarks(before), assumptionMarks(after)];
  const removed = [...was].filter(([sentence]) => !now.has(sentence));
  const added = [...now].filter(([sentence]) => !was.has(sentence));
  const changes: AssumptionChange[] = [];
  const pairedAdded = new Set<string>();
  for (const [sentence, places] of removed) {
    // Same place, new words: a rewording rather than one guess dropped and another made.
    const match = added.find(([other, otherPlaces]) => !pairedAdded.has(other) && otherPlaces.some((place) => places.includes(place)));
    if (match) {
      pairedAdded.add(match[0]);
      changes.push({ change: "reworded", document, where: places.find((place) => match[1].includes(place)) ?? places[0], before: sentence, after: match[0] });
    } else {
      changes.push({ change: "removed", document, where: places[0], before: sentence });
    }
  }
  for (const [sentence, places] of added) {
    if (!pairedAdded.has(sentence)) changes.push({ change: "added", document, where: places[0], after: sentence });
  }
  return changes;
}
