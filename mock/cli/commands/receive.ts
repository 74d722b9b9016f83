/**
 * `hr-mock receive`: a local webhook receiver for trying deliveries end to end. It verifies each
 * delivery with the same code a consumer imports (src/webhooks) and prints one line per delivery,
 * and a hint once when deliveries are rejected in a row for one cause (cli/hints.ts).
 */
import {
  createReceiver,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TOLERANCE_SECONDS,
  listen,
  type DeliveryInfo,
  type Rejection,
  type WebhookEvent,
} from "../../../src/webhooks/node/index.js";
import { command, nonEmpty, usage, wholeNumber, type CommandLine, type Output } from "../command.js";
import { createRejectionHints } from "../hints.js";
import { quoted } from "../../kernel/parse-error.js";
import { SECRET_PREFIX } from "../../kernel/text.js";

export const RECEIVE_HELP = `Usage: hr-mock receive --port <port> --secret <whsec_...> [options]

Runs a local webhook receiver: checks each delivery's Service-Signature and event headers,
answers as a real receiver should, and prints one line per delivery (and a hint, once, when
deliveries are rejected in a row for one cause: a wrong --secret, clocks apart).

Options:
  --port <n>         Port to listen on; 0 picks a free one. Required.
  --secret <s>       The endpoint's signing secret (begins whsec_). Repeat it to accept
                     an old and a new secret while rotating. Required. Never printed.
  --host <h>         Address to bind (default 127.0.0.1).
  --path <p>         Accept deliveries only at this path, e.g. /hooks (default: any path).
  --tolerance <s>    Largest accepted signature age or clock skew, seconds (default ${DEFAULT_TOLERANCE_SECONDS}).
  --json             Print each verified event as one JSON line on stdout; every other
                     line (start, repeats, rejections) goes to stderr.
  -h, --help         Show this help.

Answers: 200 for a verified event (a repeated event id too, marked duplicate and handled
once), 400 with {"error": reason} for a bad signature or event, 404 for another path,
405 for a method other than POST, 413 for a body over ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MiB.
Stops on Ctrl-C (SIGINT) or SIGTERM.
`;

const RECEIVE_FLAGS = {
  port: { type: "string" },
  secret: { type: "string", multiple: true },
  host: { type: "string", default: "127.0.0.1" },
  path: { type: "string" },
  tolerance: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

/** Runs the receiver until SIGINT/SIGTERM (or `signal`, which tests and embedding code may give); a bad flag throws a one-line Error. */
export const receiveCommand = command<typeof RECEIVE_FLAGS, { signal?: AbortSignal }>({ name: "receive", flags: RECEIVE_FLAGS, help: RECEIVE_HELP }, async (line, io) => {
  const settings = settingsOf(line);
  const print = makePrinter(settings.json, io.stdout, io.stderr);

  const handler = createReceiver({
    secret: settings.secrets,
    path: settings.path,
    toleranceSeconds: settings.toleranceSeconds,
    onEvent: print.event,
    onDuplicate: print.duplicate,
    onRejected: print.rejected,
  });
  const receiver = await listen(handler, { port: settings.port, host: settings.host }).catch((error: unknown) => {
    throw new Error(`cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`);
  });
  const secretCount = settings.secrets.length === 1 ? "1 secret" : `${settings.secrets.length} secrets`;
  print.status(
    `Receiving webhooks at ${receiver.url}${settings.path ?? "/"} ` +
      `(tolerance ${settings.toleranceSeconds} s, ${secretCount}). Ctrl-C stops.`,
  );
  await untilStopped(io.signal);
  await receiver.close();
  print.status("Receiver stopped.");
});

/** Flags to settings; every mistake is a UsageError naming the flag (never its secret value). */
function settingsOf({ values }: CommandLine<typeof RECEIVE_FLAGS>) {
  if (values.port === undefined) throw usage("receive", "--port is required (0 picks a free port)");
  const port = wholeNumber("receive", "--port", values.port, 0, 65_535);
  const host = nonEmpty("receive", "--host", values.host ?? "");
  const secrets = values.secret ?? [];
  if (secrets.length === 0) throw usage("receive", "--secret is required: the endpoint's signing secret");
  // The value is never echoed: a mistyped secret is still a secret.
  if (!secrets.every((s) => s.startsWith(SECRET_PREFIX) && s.length > SECRET_PREFIX.length)) {
    throw usage("receive", "--secret must be a signing secret beginning whsec_ (an API key will not verify deliveries)");
  }
  const path = values.path;
  if (path !== undefined && !path.startsWith("/")) throw usage("receive", `--path must start with "/", got ${quoted(path)}`);
  const toleranceSeconds = values.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : wholeNumber("receive", "--tolerance", values.tolerance, 0, Number.MAX_SAFE_INTEGER, "a whole number of seconds");
  return { port, host, secrets, path, toleranceSeconds, json: values.json ?? false };
}

/** One line per delivery; with --json, stdout carries only event JSON so it can be piped. */
function makePrinter(json: boolean, stdout: Output, stderr: Output) {
  const info = json ? stderr : stdout;
  const line = (out: Output, ...parts: string[]) =>
    out.write(`${[new Date().toISOString(), ...parts].join("  ")}\n`);
  const hints = createRejectionHints();
  return {
    status: (text: string) => info.write(`${text}\n`),
    event: (event: WebhookEvent, delivery: DeliveryInfo) => {
      hints("verified");
      if (json) stdout.write(`${JSON.stringify(event)}\n`);
      else line(stdout, event.type, event.id, `delivery=${delivery.deliveryId ?? "-"}`, summarizeData(event.data));
    },
    duplicate: (event: WebhookEvent, delivery: DeliveryInfo) => {
      hints("verified");
      line(info, "duplicate", event.type, event.id, `delivery=${delivery.deliveryId ?? "-"}`, "(already handled)");
    },
    rejected: (rejection: Rejection) => {
      line(info, "rejected", `${rejection.status} ${rejection.reason}`, `delivery=${rejection.deliveryId ?? "-"}`, rejection.message);
      const hint = hints(rejection.reason);
      if (hint) info.write(`${hint}\n`);
    },
  };
}

/**
 * Scalar fields of `data` as key=value: enough to recognise the event at a glance. Whole fields
 * only (an id cut in half cannot be looked up through the API); "…" marks fields left out.
 */
export function summarizeData(data: unknown, maxLength = 200): string {
  if (typeof data !== "object" || data === null) return "";
  const parts = Object.entries(data)
    .filter(([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value))
    .map(([key, value]) => `${key}=${String(value)}`);
  let text = "";
  for (const part of parts) {
    // The first field is kept whatever its length: it names the record.
    if (text !== "" && text.length + 2 + part.length > maxLength) return `${text}, …`;
    text = text === "" ? part : `${text}, ${part}`;
  }
  return text;
}

/** Resolves on the first of SIGINT, SIGTERM or the abort signal, and unhooks the others. */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });
  });
}
