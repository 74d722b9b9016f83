// `hr-mock export`: the dataset as a data file, YAML or JSON, on stdout or into --out. Offline it
// builds the dataset from the flags serve takes (--seed, --scale, --today, --data); with --mock-url
// it reads a running mock's current dataset (triggers' changes included) through GET /_mock/data.
// `hr-mock serve --data` loads the file back to the same API answers.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { DataFile } from "../../data/data-file.js";
import { readDataFile } from "../../data/read-data-file.js";
import { createDataset } from "../../data/dataset.js";
import { datasetToDataFile, formatDataFile, type DataFileFormat } from "../../data/export.js";
import { DEMO_KEY } from "../../keys/demo-keys.js";
import { describeParseError, shown } from "../parse-error.js";

export const EXPORT_HELP = `Usage: hr-mock export [options]

Writes the dataset as a data file that "hr-mock serve --data FILE" loads back to the same API
answers: every record, no derived value (working days, balances and counts are computed again).

Options:
  --seed <n>              Dataset seed, an integer (default 1).
  --scale <x>             Multiplies employees and leave requests (default 1).
  --today <YYYY-MM-DD>    The dataset's "today" (default the data file's, else the real UTC date).
  --data <file>           Start from a data file, as serve does; what it leaves out is generated.
  --mock-url <url>        Export a running mock's current dataset instead (triggers' changes
                          included), through its control API GET /_mock/data.
  --api-key <key>         With --mock-url: a key holding Manage Webhooks (default ${DEMO_KEY.org1WebhooksAdmin}).
  --format <yaml|json>    The file's format (default json when --out ends in .json, else yaml).
  --out <file>            Write the file there (default stdout).
  -h, --help              Show this help.
`;

const REQUEST_TIMEOUT_MS = 30_000;

export interface ExportIO {
  stdout?: { write(text: string): unknown };
  fetch?: typeof fetch;
}

/** The CLI entry; every mistake or failure throws an Error with one line (DataFileError: one per problem). */
export async function exportCommand(argv: string[], io: ExportIO = {}): Promise<void> {
  const stdout = io.stdout ?? process.stdout;
  const flags = parseFlags(argv);
  if (flags === "help") {
    stdout.write(EXPORT_HELP);
    return;
  }
  const file = flags.mockUrl ? await fromMock(flags.mockUrl, flags.apiKey, io.fetch ?? fetch) : offline(flags);
  const text = formatDataFile(file, flags.format);
  if (flags.out) {
    try {
      writeFileSync(flags.out, text);
    } catch (error) {
      throw new Error(`cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else stdout.write(text);
}

interface ExportFlags {
  seed: number;
  scale: number;
  today?: string;
  data?: string;
  mockUrl?: URL;
  apiKey: string;
  format: DataFileFormat;
  out?: string;
}

function offline(flags: ExportFlags): DataFile {
  const data = flags.data === undefined ? undefined : readDataFile(flags.data);
  try {
    return datasetToDataFile(createDataset({ seed: flags.seed, scale: flags.scale, today: flags.today, data }));
  } catch (error) {
    // createDataset's RangeErrors name the value (scale, today); a DataFileError passes through.
    if (error instanceof RangeError) throw new Error(`--${error.message}`);
    throw error;
  }
}

async function fromMock(mockUrl: URL, apiKey: string, fetcher: typeof fetch): Promise<DataFile> {
  const target = new URL("/_mock/data", mockUrl);
  let response: Response;
  try {
    response = await fetcher(target, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach the mock at ${mockUrl.origin} (${cause?.code ?? cause?.message ?? (error as Error).message}); is hr-mock serve running there?`);
  }
  const text = await response.text();
  let answer: { isSuccessful?: boolean; message?: string; data?: DataFile } | undefined;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    answer = undefined;
  }
  if (!response.ok || answer?.isSuccessful !== true || !answer.data) {
    const message = typeof answer?.message === "string" ? answer.message : `HTTP ${response.status} without the mock's envelope (is ${mockUrl.origin} the mock?)`;
    throw new Error(`the mock answered ${response.status}: ${message}`);
  }
  return answer.data;
}

function parseFlags(argv: string[]): ExportFlags | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        seed: { type: "string" },
        scale: { type: "string" },
        today: { type: "string" },
        data: { type: "string" },
        "mock-url": { type: "string" },
        "api-key": { type: "string" },
        format: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new Error(`${describeParseError(error as NodeJS.ErrnoException, argv)} (see hr-mock export --help)`);
  }
  if (values.help) return "help";
  const offlineFlags = ["seed", "scale", "today", "data"].filter((f) => values[f as keyof typeof values] !== undefined);
  if (values["mock-url"] !== undefined && offlineFlags.length > 0) {
    throw new Error(`--mock-url exports the running mock's dataset; --${offlineFlags[0]} applies only without it (see hr-mock export --help)`);
  }
  const seed = values.seed === undefined ? 1 : /^-?\d+$/.test(values.seed.trim()) ? Number(values.seed) : NaN;
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${shown(JSON.stringify(values.seed))} (see hr-mock export --help)`);
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (values.scale !== undefined && (values.scale.trim() === "" || !Number.isFinite(scale))) throw new Error(`--scale must be a number, got ${shown(JSON.stringify(values.scale))} (see hr-mock export --help)`);
  const format = values.format ?? (values.out?.toLowerCase().endsWith(".json") ? "json" : "yaml");
  if (format !== "yaml" && format !== "json") throw new Error(`--format must be yaml or json, got ${shown(JSON.stringify(format))} (see hr-mock export --help)`);
  const apiKey = values["api-key"] ?? DEMO_KEY.org1WebhooksAdmin;
  if (apiKey.trim() === "" || /\s/.test(apiKey)) throw new Error("--api-key must be one key without spaces");
  return { seed, scale, today: values.today, data: values.data, mockUrl: values["mock-url"] === undefined ? undefined : mockUrl(values["mock-url"]), apiKey, format, out: values.out };
}

function mockUrl(text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new Error(`--mock-url must be the mock's http:// or https:// address, got ${shown(JSON.stringify(text))}`);
  return url;
}
