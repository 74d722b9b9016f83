// Webhook endpoints as the provider's web application keeps them (service-api.md §6.2): a URL,
// an optional description, every event or a selection, a `whsec_` signing secret shown once, and
// at most `x-max-endpoints-per-organisation` per organisation. The registry holds no I/O.
import { randomBytes, randomUUID } from "node:crypto";
import type { WebhookEventType } from "../../generated/events.js";
import { deliveryRules, isEventType } from "./asyncapi.js";
import { checkEndpointUrl } from "./endpoint-url.js";

export const SECRET_PREFIX = "whsec_";
/** A chosen secret: the prefix, then at least 16 characters without spaces or commas. */
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=_.-]{16,200}$/;
export const MAX_DESCRIPTION_LENGTH = 500;

/** `"all"` also covers event types added later; a list covers only those types. */
export type EventSelection = "all" | readonly WebhookEventType[];

export interface EndpointInput {
  url: string;
  description?: string;
  /** Default "all". */
  events?: EventSelection;
  /** A chosen `whsec_…` secret (the mock's convenience); by default one is generated. */
  secret?: string;
}

/** An endpoint as lists show it: never the secret. */
export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  events: "all" | WebhookEventType[];
  createdAt: string;
}

/** The answer to adding an endpoint: the only time the secret is shown. */
export interface CreatedEndpoint extends EndpointView {
  secret: string;
}

export interface Endpoint {
  readonly id: string;
  readonly organizationId: string;
  readonly url: URL;
  readonly description: string | null;
  readonly events: EventSelection;
  readonly secret: string;
  readonly createdAt: string;
}

/** A refused registration, with the HTTP status the control API answers and the field at fault. */
export class EndpointError extends Error {
  override readonly name = "EndpointError";
  constructor(
    readonly status: 400 | 404 | 409,
    readonly field: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

export function checkSecret(secret: unknown): string | undefined {
  if (typeof secret !== "string" || !SECRET_PATTERN.test(secret)) {
    return "secret must begin whsec_ followed by at least 16 letters, digits or + / = _ . - (no spaces)";
  }
  return undefined;
}

/** Validates a selection against the catalogue; duplicates are dropped, order kept. */
export function checkEvents(events: unknown): { ok: true; events: EventSelection } | { ok: false; message: string } {
  if (events === undefined || events === "all") return { ok: true, events: "all" };
  if (!Array.isArray(events) || events.length === 0) {
    return { ok: false, message: 'events must be "all" or a non-empty list of event types' };
  }
  const unknown = events.filter((e) => !isEventType(e));
  if (unknown.length > 0) {
    return { ok: false, message: `events has types that are not in the event catalogue: ${unknown.map((e) => JSON.stringify(e)).join(", ")}` };
  }
  return { ok: true, events: [...new Set(events as WebhookEventType[])] };
}

export function subscribes(endpoint: Endpoint, type: WebhookEventType): boolean {
  return endpoint.events === "all" || endpoint.events.includes(type);
}

export function viewOf(endpoint: Endpoint): EndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url.href,
    description: endpoint.description,
    events: endpoint.events === "all" ? "all" : [...endpoint.events],
    createdAt: endpoint.createdAt,
  };
}

export class EndpointRegistry {
  private readonly byOrganization = new Map<string, Endpoint[]>();
  private readonly byId = new Map<string, Endpoint>();
  readonly maxPerOrganisation = deliveryRules().maxEndpointsPerOrganisation;

  constructor(private readonly options: { strictUrls: boolean; allowPrivateUrls?: boolean; now?: () => Date }) {}

  /** Adds an endpoint or throws EndpointError naming the field; the result carries the secret. */
  add(organizationId: string, input: EndpointInput): { endpoint: Endpoint; created: CreatedEndpoint } {
    const url = checkEndpointUrl(input.url, { strict: this.options.strictUrls, allowPrivate: this.options.allowPrivateUrls });
    if (!url.ok) throw new EndpointError(400, "url", url.message);
    if (input.description !== undefined && input.description !== null) {
      if (typeof input.description !== "string" || input.description.length > MAX_DESCRIPTION_LENGTH) {
        throw new EndpointError(400, "description", `description must be text of at most ${MAX_DESCRIPTION_LENGTH} characters`);
      }
    }
    const events = checkEvents(input.events);
    if (!events.ok) throw new EndpointError(400, "events", events.message);
    if (input.secret !== undefined) {
      const why = checkSecret(input.secret);
      if (why) throw new EndpointError(400, "secret", why);
    }
    const own = this.byOrganization.get(organizationId) ?? [];
    if (own.length >= this.maxPerOrganisation) {
      throw new EndpointError(
        409,
        undefined,
        `Conflict: this organisation already has ${own.length} webhook endpoints, the most allowed; remove one first`,
      );
    }
    const endpoint: Endpoint = Object.freeze({
      id: randomUUID(),
      organizationId,
      url: url.url,
      description: input.description?.trim() ? input.description.trim() : null,
      events: events.events,
      secret: input.secret ?? generateSecret(),
      createdAt: (this.options.now?.() ?? new Date()).toISOString(),
    });
    this.byOrganization.set(organizationId, [...own, endpoint]);
    this.byId.set(endpoint.id, endpoint);
    return { endpoint, created: { ...viewOf(endpoint), secret: endpoint.secret } };
  }

  /** The organisation's endpoints, oldest first. */
  list(organizationId: string): readonly Endpoint[] {
    return this.byOrganization.get(organizationId) ?? [];
  }

  /** An endpoint of the organisation (another organisation's id is not found, as in the API). */
  get(organizationId: string, id: string): Endpoint | undefined {
    const endpoint = this.byId.get(id.toLowerCase());
    return endpoint && endpoint.organizationId === organizationId ? endpoint : undefined;
  }

  remove(organizationId: string, id: string): Endpoint | undefined {
    const endpoint = this.get(organizationId, id);
    if (!endpoint) return undefined;
    this.byId.delete(endpoint.id);
    this.byOrganization.set(
      organizationId,
      this.list(organizationId).filter((e) => e !== endpoint),
    );
    return endpoint;
  }

  /** Endpoints of the organisation that receive the type. */
  subscribers(organizationId: string, type: WebhookEventType): Endpoint[] {
    return this.list(organizationId).filter((e) => subscribes(e, type));
  }
}
