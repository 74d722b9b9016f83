// Where an operation and an event live on the reference pages. Redoc's page routes by hash,
// `#/<tag>/<operationId>`, both slugged; the events page's anchors are `#message-<event type>`
// (events-reference.ts keys each message by its type for that). The site's browser test follows
// every link made here, so a renderer that changes its scheme fails there.
import type { EventFact, OperationFact } from "./spec-facts.js";

const redocSlug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export const operationLink = (operation: Pick<OperationFact, "operationId" | "tag">): string =>
  `api.html#/${operation.tag ? `${redocSlug(operation.tag)}/` : ""}${redocSlug(operation.operationId)}`;

export const eventLink = (event: Pick<EventFact, "name">): string => `events.html#message-${event.name}`;
