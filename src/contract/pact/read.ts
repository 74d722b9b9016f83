// Pact files of specification V2, V3 and V4 read into one shape: an HTTP interaction's request
// (method, path, query values by name, headers by lower-cased name) and expected response (status,
// headers, JSON body), with its provider states. Pure: the text in, the interactions or one line.
import { jsonOf } from "../ids-file.js";

export interface PactState {
  name: string;
  params: Record<string, unknown>;
}

export interface PactInteraction {
  description: string;
  states: PactState[];
  method: string;
  path: string;
  query: Record<string, string[]>;
  /** Header values by lower-cased name. */
  headers: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
  /** The expected JSON body; undefined when the pact expects none. */
  body: unknown;
  /** The body could not be read as JSON (its words), when it could not. */
  bodyProblem?: string;
}

export interface PactDocument {
  /** 2, 3 or 4. */
  version: number;
  consumer: string;
  provider: string;
  interactions: PactInteraction[];
  /** Interactions of other kinds (V4 messages), by description: no HTTP request to check. */
  skipped: string[];
}

const isObject = (value: unknown): value is Record<string, any> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The pact in `text`; throws an Error with one line when it is not a pact. */
export function readPact(text: string): PactDocument {
  const json = jsonOf(text);
  if (!isObject(json) || !Array.isArray(json.interactions)) throw new Error("not a Pact file: no interactions list");
  const meta = isObject(json.metadata) ? json.metadata : {};
  const spec = meta.pactSpecification?.version ?? meta["pact-specification"]?.version ?? meta.pactSpecificationVersion ?? "2.0.0";
  const version = Number.parseInt(String(spec), 10);
  if (![1, 2, 3, 4].includes(version)) throw new Error(`Pact specification ${JSON.stringify(String(spec))} is not one this reads (V2, V3, V4)`);
  const document: PactDocument = {
    version: Math.max(version, 2),
    consumer: String(json.consumer?.name ?? "consumer"),
    provider: String(json.provider?.name ?? "provider"),
    interactions: [],
    skipped: [],
  };
  json.interactions.forEach((raw: unknown, index: number) => {
    if (!isObject(raw)) throw new Error(`interaction ${index + 1} is not an object`);
    const description = typeof raw.description === "string" ? raw.description : `interaction ${index + 1}`;
    if (raw.type !== undefined && raw.type !== "Synchronous/HTTP") return void document.skipped.push(description);
    if (!isObject(raw.request) || !isObject(raw.response)) throw new Error(`interaction "${description}" has no request or response`);
    document.interactions.push(interactionOf(raw, description));
  });
  return document;
}

function interactionOf(raw: Record<string, any>, description: string): PactInteraction {
  const { request, response } = raw;
  const states: PactState[] = Array.isArray(raw.providerStates)
    ? raw.providerStates.filter(isObject).map((s: any) => ({ name: String(s.name ?? ""), params: isObject(s.params) ? s.params : {} }))
    : typeof raw.providerState === "string"
      ? [{ name: raw.providerState, params: {} }]
      : [];
  const responseHeaders = headersOf(response.headers);
  const { body, problem } = bodyOf(response.body, responseHeaders["content-type"]);
  return {
    description,
    states,
    method: String(request.method ?? "GET").toUpperCase(),
    path: String(request.path ?? "/"),
    query: queryOf(request.query),
    headers: headersOf(request.headers),
    status: Number(response.status ?? 200),
    responseHeaders,
    body,
    ...(problem !== undefined && { bodyProblem: problem }),
  };
}

/** V2: "a=1&b=2"; V3 and V4: { a: ["1"] } (a single string is taken too). */
function queryOf(query: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof query === "string") {
    for (const [name, value] of new URLSearchParams(query)) (out[name] ??= []).push(value);
  } else if (isObject(query)) {
    for (const [name, value] of Object.entries(query)) out[name] = (Array.isArray(value) ? value : [value]).map(String);
  }
  return out;
}

/** V2 and V3: { Name: "value" }; V4: { Name: ["value"] }. */
function headersOf(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(headers)) return out;
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(", ") : String(value);
  return out;
}

/** V2 and V3: the body as JSON; V4: { content, contentType, encoded }. */
function bodyOf(body: unknown, contentType: string | undefined): { body: unknown; problem?: string } {
  if (body === undefined || body === null) return { body: undefined };
  if (isObject(body) && "content" in body && ("contentType" in body || "encoded" in body)) {
    const { content, encoded } = body as { content: unknown; encoded?: unknown };
    const type = String((body as { contentType?: unknown }).contentType ?? contentType ?? "application/json");
    if (!/json/i.test(type)) return { body: undefined };
    if (typeof content !== "string") return { body: content };
    const text = encoded === "base64" || encoded === true ? Buffer.from(content, "base64").toString("utf8") : content;
    try {
      return { body: JSON.parse(text) };
    } catch (error) {
      return { body: undefined, problem: `the body is not JSON (${(error as Error).message})` };
    }
  }
  return { body };
}
