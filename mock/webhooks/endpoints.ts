// Webhook endpoints as the provider's web application keeps them (service-api.md §6.2): a URL,
// an optional description, every event or a selection, a `whsec_` signing secret shown once, and
// at most `x-max-endpoints-per-organisation` per organisation. The registry holds no I/O.
import { randomBytes, randomUUID } from "node:crypto";
import type { components } from "../../generated/control-api.js";
import type { WebhookEventType } from "../../generated/events.js";
import { checkEndpointUrl } from "./endpoint-url.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import { SECRET_PREFIX } from "../kernel/text.js";
import type { EngineSettings } from "./settings.js";

/** `"all"` also covers event types added later; a list covers only those types. */
export type EventSelection = "all" | readonly WebhookEventType[];

/** A new endpoint, checked against the AddEndpointRequest schema where it came in; the rest is checked here. */
export type EndpointInput = components["schemas"]["AddEndpointRequest"];

/** An endpoint as lists show it (never the secret), and the answer to adding one: the only time the secret is shown. */
export type EndpointView = components["schemas"]["Endpoint"];
export type CreatedEndpoint = components["schemas"]["CreatedEndpoint"];

export interface Endpoint {
  readonly id: string;
  readonly organizationId: string;
  readonly url: URL;
  readonly description: string | null;
  readonly events: EventSelection;
  readonly secret: string;
  readonly createdAt: string;
}

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

export function subscribes(endpoint: Endpoint, type: WebhookEventType): boolean {
  return endpoint.events === "all" || endpoint.events.includes(type);
}

/** The endpoint's URL as logs and answers show it: origin and path only, since a query string may carry a receiver's token. */
export function shownUrl(endpoint: Endpoint): string {
  return `${endpoint.url.origin}${endpoint.url.pathname}`;
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

/** The URL rules in force: development mode or the service's. */
type EndpointRules = Pick<EngineSettings, "strictUrls"> & Partial<Pick<EngineSettings, "allowPrivateUrls">>;

/** A new endpoint with its id and secret, or refused by the URL rules in force; the organisation's limit is the holder's to check. */
export function makeEndpoint(organizationId: string, input: EndpointInput, rules: EndpointRules): Result<{ endpoint: Endpoint; created: CreatedEndpoint }> {
  const url = checkEndpointUrl(input.url, { strict: rules.strictUrls, allowPrivate: rules.allowPrivateUrls });
  if (!url.ok) return refuse("invalid", url.message, "url");
  const events: EventSelection = input.events === undefined || input.events === "all" ? "all" : [...new Set(input.events)];
  const endpoint: Endpoint = Object.freeze({
    id: randomUUID(),
    organizationId,
    url: url.url,
    description: input.description?.trim() ? input.description.trim() : null,
    events,
    secret: input.secret ?? generateSecret(),
    createdAt: new Date().toISOString(),
  });
  return ok({ endpoint, created: { ...viewOf(endpoint), secret: endpoint.secret } });
}

/** The refusal of an endpoint past the organisation's limit. */
export function atLimit(held: number): Result<never> {
  return refuse("conflict", `this organisation already has ${held} webhook endpoints, the most allowed; remove one first`);
}

export class EndpointRegistry {
  private readonly byOrganization = new Map<string, Endpoint[]>();
  constructor(private readonly options: EndpointRules & { maxPerOrganisation: number }) {}

  /** Adds an endpoint unless the URL rules or the organisation's limit refuse it; the result carries the secret. */
  add(organizationId: string, input: EndpointInput): Result<{ endpoint: Endpoint; created: CreatedEndpoint }> {
    const made = makeEndpoint(organizationId, input, this.options);
    if (!made.ok) return made;
    const own = this.byOrganization.get(organizationId) ?? [];
    if (own.length >= this.options.maxPerOrganisation) return atLimit(own.length);
    const { endpoint } = made.value;
    this.byOrganization.set(organizationId, [...own, endpoint]);
    return made;
  }

  /** An endpoint restored from a state directory, as it was (its id and secret unchanged). */
  restore(endpoint: Endpoint): void {
    this.byOrganization.set(endpoint.organizationId, [...this.list(endpoint.organizationId), Object.freeze(endpoint)]);
  }

  /** Every endpoint, each organisation's oldest first. */
  all(): Endpoint[] {
    return [...this.byOrganization.values()].flat();
  }

  /** The organisation's endpoints, oldest first. */
  list(organizationId: string): readonly Endpoint[] {
    return this.byOrganization.get(organizationId) ?? [];
  }

  /** Another organisation's endpoint is not found, as in the API. */
  remove(organizationId: string, id: string): Endpoint | undefined {
    // An organisation holds a few endpoints (x-max-endpoints-per-organisation): a scan is enough.
    const endpoint = this.list(organizationId).find((e) => e.id === id.toLowerCase());
    if (!endpoint) return undefined;
    this.byOrganization.set(
      organizationId,
      this.list(organizationId).filter((e) => e !== endpoint),
    );
    return endpoint;
  }
}
