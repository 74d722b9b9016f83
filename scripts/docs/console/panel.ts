// The API console's panel in the reference page (browser code, bundled into site/api-console.js):
// the operation's form (fields from the spec, read at build time), the key, where the request is
// answered (in the page by the mock's handlers, or a base URL), Send, the answer (status, the
// headers that matter, the body formatted) and the request as curl and as a typed-client call,
// each with a copy button, always the request as filled in.
import type { ConsoleField, ConsoleOperation } from "./operations.js";
import { clientCallOf, curlOf, requestUrl, type FieldValues } from "./requests.js";
import { PANEL_CSS } from "./styles.js";

export interface ConsoleKey {
  key: string;
  /** Who the key is: its organisation and permissions in words ("org 1, leave only"). */
  label: string;
  permissions: string[];
}

export interface ConsoleSetup {
  operations: ConsoleOperation[];
  keys: ConsoleKey[];
  /** The key chosen when a panel opens: one that may call every operation. */
  defaultKey: string;
  /** The spec's server: where in-page requests are addressed, and the samples' base URL. */
  serverUrl: string;
  /** Answers a request in the page (the mock's MSW handlers), nothing sent. */
  answerInPage: (request: Request) => Promise<Response>;
}

/** The answer's headers a reader needs: the rate limit's, Retry-After and Content-Type. */
const SHOWN_HEADER = /^(content-type|retry-after|ratelimit-.*)$/i;
const TYPED = "(typed)";
const NONE = "(none)";
const OTHER = "(other)";

let styled = false;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { class?: string } = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { class: className, ...rest } = props;
  if (className) node.className = className;
  Object.assign(node, rest);
  node.append(...children);
  return node;
}

/** Builds the panel of `operationId` into `container` (empty); throws when the operation is unknown. */
export function mountPanel(setup: ConsoleSetup, container: HTMLElement, operationId: string): void {
  const operation = setup.operations.find((op) => op.operationId === operationId);
  if (!operation) throw new Error(`the console has no operation ${operationId}`);
  if (!styled) {
    document.head.append(element("style", { textContent: PANEL_CSS }));
    styled = true;
  }
  const id = (name: string) => `hr-try-${operationId}-${name}`;
  const labelled = (name: string, text: string, control: HTMLElement, ...after: Array<Node | string>) =>
    element("div", { class: "hr-try-field" }, element("label", { htmlFor: id(name) }, text), control, ...after);

  // Where the request goes.
  const target = element("select", { id: id("target") });
  target.append(element("option", { value: "page" }, "This page: the mock's handlers, nothing sent"), element("option", { value: "url" }, "A base URL (a running mock, a deployment)"));
  const baseUrl = element("input", { id: id("base-url"), type: "url", placeholder: setup.serverUrl, value: setup.serverUrl, hidden: true, spellcheck: false });
  baseUrl.setAttribute("aria-label", "Base URL");

  // The key.
  const key = element("select", { id: id("key") });
  for (const demo of setup.keys) key.append(element("option", { value: demo.key, selected: demo.key === setup.defaultKey }, `${demo.key}: ${demo.label}${demo.permissions.length ? ` (${demo.permissions.join(", ")})` : " (no permission)"}`));
  key.append(element("option", { value: TYPED }, "A key typed in…"), element("option", { value: NONE }, "No key"));
  const typedKey = element("input", { id: id("typed-key"), type: "text", hidden: true, spellcheck: false, autocomplete: "off" });
  typedKey.setAttribute("aria-label", "API key");

  // The operation's parameters, as the spec has them.
  const readers: Array<[string, () => string]> = [];
  const fields = operation.fields.map((field) => {
    const [control, read, extra] = fieldControl(field, id(`p-${field.name}`));
    readers.push([field.name, read]);
    const name = element("span", {}, element("code", {}, field.name), field.required ? element("span", { class: "hr-try-required" }, " required") : "", element("span", { class: "hr-try-in" }, ` ${field.in}`));
    const label = element("label", { htmlFor: id(`p-${field.name}`) }, name);
    return element("div", { class: "hr-try-field" }, label, control, ...extra, element("small", {}, field.description));
  });

  const send = element("button", { type: "submit", class: "hr-try-send" }, "Send");
  const answer = element("div", { class: "hr-try-answer", hidden: true });
  answer.setAttribute("aria-live", "polite");
  const curl = sample("curl", "curl");
  const client = sample("TypeScript (hr-service-contract/client)", "client");

  const values = (): FieldValues => Object.fromEntries(readers.map(([name, read]) => [name, read()]));
  const chosenKey = () => (key.value === TYPED ? typedKey.value.trim() : key.value === NONE ? "" : key.value);
  const chosenBase = () => (target.value === "url" ? baseUrl.value.trim().replace(/\/+$/, "") : setup.serverUrl);
  const refresh = () => {
    baseUrl.hidden = target.value !== "url";
    typedKey.hidden = key.value !== TYPED;
    curl.set(curlOf(operation, values(), chosenKey(), chosenBase()));
    client.set(clientCallOf(operation, values(), chosenKey(), chosenBase()));
  };

  const form = element(
    "form",
    { class: "hr-try", noValidate: true },
    element("div", { class: "hr-try-head" }, element("span", { class: "hr-try-method" }, operation.method), element("code", {}, operation.path)),
    labelled("target", "Answered by", target, baseUrl),
    labelled("key", "API key", key, typedKey),
    ...(fields.length ? [element("fieldset", {}, element("legend", {}, "Parameters"), ...fields)] : []),
    element("div", { class: "hr-try-actions" }, send),
    answer,
    element("div", { class: "hr-try-samples" }, curl.node, client.node),
  );
  form.setAttribute("aria-label", `Try ${operation.summary}`);
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void sendRequest();
  });
  container.replaceChildren(form);
  refresh();

  async function sendRequest(): Promise<void> {
    const inPage = target.value === "page";
    const base = chosenBase();
    if (!inPage && !/^https?:\/\/[^/]/.test(base)) {
      showAnswer(element("p", { class: "hr-try-error" }, "Give the base URL to send to, such as http://127.0.0.1:4010."));
      return;
    }
    const headers = new Headers({ Accept: "application/json" });
    if (chosenKey() !== "") headers.set("Authorization", `Bearer ${chosenKey()}`);
    const url = requestUrl(operation!, values(), base);
    send.disabled = true;
    answer.setAttribute("aria-busy", "true");
    try {
      const response = inPage ? await setup.answerInPage(new Request(url, { method: operation!.method, headers })) : await fetch(url, { method: operation!.method, headers });
      showAnswer(...(await describe(response)));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      showAnswer(element("p", { class: "hr-try-error" }, inPage ? `The page's mock failed: ${reason}` : `No answer from ${base}: ${reason}. Is it running, and does it answer this page's origin (CORS)?`));
    } finally {
      send.disabled = false;
      answer.removeAttribute("aria-busy");
    }
  }

  function showAnswer(...nodes: Node[]): void {
    answer.replaceChildren(...nodes);
    answer.hidden = false;
  }
}

/** A field's control, how to read it, and what follows it (a choice's "other value" input). */
function fieldControl(field: ConsoleField, controlId: string): [HTMLElement, () => string, HTMLElement[]] {
  if (field.kind === "choice" || field.kind === "boolean") {
    const select = element("select", { id: controlId });
    if (!field.required) select.append(element("option", { value: "" }, "(not sent)"));
    field.choices.forEach((choice, i) => select.append(element("option", { value: choice, selected: choice === field.example }, field.choiceLabels[i] ?? choice)));
    // A value outside the choices, to see how the service refuses it.
    select.append(element("option", { value: OTHER }, "other value…"));
    const other = element("input", { id: `${controlId}-other`, type: "text", hidden: true, spellcheck: false });
    other.setAttribute("aria-label", `${field.name}: other value`);
    select.addEventListener("change", () => (other.hidden = select.value !== OTHER));
    return [select, () => (select.value === OTHER ? other.value : select.value), [other]];
  }
  const input = element("input", { id: controlId, type: "text", value: field.example, spellcheck: false, required: field.required, inputMode: field.kind === "integer" ? "numeric" : "text" });
  if (field.kind === "list") input.placeholder = "values separated by commas";
  return [input, () => input.value, []];
}

/** A code sample with its copy button. */
function sample(title: string, name: string): { node: HTMLElement; set(text: string): void } {
  const code = element("code", {});
  const status = element("span", { class: "hr-try-copied" });
  status.setAttribute("aria-live", "polite");
  const copy = element("button", { type: "button", class: "hr-try-copy" }, "Copy");
  copy.setAttribute("aria-label", `Copy the ${name === "curl" ? "curl command" : "client call"}`);
  copy.addEventListener("click", () => {
    void navigator.clipboard?.writeText(code.textContent ?? "").then(
      () => (status.textContent = "Copied"),
      () => (status.textContent = "Select the text to copy it"),
    );
  });
  const node = element("div", { class: `hr-try-sample hr-try-sample-${name}` }, element("div", { class: "hr-try-sample-head" }, element("span", {}, title), status, copy), element("pre", {}, code));
  return { node, set: (text) => ((code.textContent = text), (status.textContent = "")) };
}

/** The answer as the panel shows it: status, the headers that matter, the body (JSON indented). */
async function describe(response: Response): Promise<Node[]> {
  const text = await response.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => SHOWN_HEADER.test(name) && headers.push([name, value]));
  const ok = response.status >= 200 && response.status < 300;
  const list = element("dl", { class: "hr-try-headers" });
  for (const [name, value] of headers.sort(([a], [b]) => a.localeCompare(b))) list.append(element("dt", {}, name), element("dd", {}, value));
  return [
    element("p", { class: `hr-try-status ${ok ? "hr-try-ok" : "hr-try-failed"}` }, `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`),
    ...(headers.length ? [list] : []),
    element("pre", { class: "hr-try-body" }, element("code", {}, body || "(no body)")),
  ];
}
