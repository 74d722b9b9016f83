// `hr-mock export`: the dataset as a data file, YAML or JSON, on stdout or into --out. Offline it
// builds the dataset from the flags serve takes (--seed, --scale, --today, --data); with --mock-url
// it reads a running mock's current dataset (triggers' changes included) through GET /_mock/data.
// `hr-mock serve --data` loads the file back to the same API answers.
import { writeFileSync } from "node:fs";
import type { DataFile } from "../../data/data-file.js";
import type { DataFileFormat } from "../../data/format-data-file.js";
import { DEMO_KEY } from "../../keys/demo-keys.js";
import { answerOf, controlOf, MOCK_TARGET_FLAGS, mockTarget, readFlags, usage, type CommandIO, type MockTarget } from "../command.js";
import { quoted } from "../../kernel/parse-error.js";

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

export type ExportIO = Partial<CommandIO>;

/** The CLI entry; every mistake or failure throws an Error with one line (DataFileError: one per problem). */
export async function exportCommand(argv: string[], io: ExportIO = {}): Promise<void> {
  const stdout = io.stdout ?? process.stdout;
  const flags = parseFlags(argv);
  if (flags === "help") {
    stdout.write(EXPORT_HELP);
    return;
  }
  // The dataset's builder, the data file reader and YAML are loaded to export, never for --help.
  const [{ datasetToDataFile }, { formatDataFile }] = await Promise.all([import("../../data/export.js"), import("../../data/format-data-file.js")]);
  const file = flags.target ? await fromMock(flags.target, io.fetch ?? fetch) : await offline(flags, datasetToDataFile);
  const text = formatDataFile(file, flags.format);
  if (flags.out) {
    try {
      writeFileSync(flags.out, text);
    } catch (error) {
      throw usage("export", `cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else stdout.write(text);
}

interface ExportFlags {
  seed: number;
  scale: number;
  today?: string;
  data?: string;
  /** With --mock-url: the running mock and the key to read its dataset with. */
  target?: MockTarget;
  format: DataFileFormat;
  out?: string;
}

async function offline(flags: ExportFlags, datasetToDataFile: (typeof import("../../data/export.js"))["datasetToDataFile"]): Promise<DataFile> {
  const [{ readDataFile }, { createDataset }] = await Promise.all([import("../../data/read-data-file.js"), import("../../data/dataset.js")]);
  const data = flags.data === undefined ? undefined : readDataFile(flags.data);
  try {
    return datasetToDataFile(createDataset({ seed: flags.seed, scale: flags.scale, today: flags.today, data }));
  } catch (error) {
    // createDataset's RangeErrors name the value (scale, today); a DataFileError passes through.
    if (error instanceof RangeError) throw usage("export", `--${error.message}`);
    throw error;
  }
}

async function fromMock(target: MockTarget, fetchImpl: typeof fetch): Promise<DataFile> {
  const answer = await answerOf(target, controlOf(target, fetchImpl, REQUEST_TIMEOUT_MS).GET("/_mock/data"));
  if (!answer.ok) throw new Error(answer.line);
  return answer.data as DataFile;
}

const EXPORT_FLAGS = {
  seed: { type: "string" },
  scale: { type: "string" },
  today: { type: "string" },
  data: { type: "string" },
  ...MOCK_TARGET_FLAGS,
  format: { type: "string" },
  out: { type: "string" },
} as const;

function parseFlags(argv: string[]): ExportFlags | "help" {
  const parsed = readFlags("export", EXPORT_FLAGS, argv);
  if (parsed === "help") return "help";
  const { values } = parsed;
  const offlineFlags = ["seed", "scale", "today", "data"].filter((f) => values[f as keyof typeof values] !== undefined);
  if (values["mock-url"] !== undefined && offlineFlags.length > 0) {
    throw usage("export", `--mock-url exports the running mock's dataset; --${offlineFlags[0]} applies only without it`);
  }
  const seed = values.seed === undefined ? 1 : /^-?\d+$/.test(values.seed.trim()) ? Number(values.seed) : NaN;
  if (!Number.isSafeInteger(seed)) throw usage("export", `--seed must be an integer, got ${quoted(String(values.seed))}`);
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (values.scale !== undefined && (values.scale.trim() === "" || !Number.isFinite(scale))) throw usage("export", `--scale must be a number, got ${quoted(values.scale)}`);
  const format = values.format ?? (values.out?.toLowerCase().endsWith(".json") ? "json" : "yaml");
  if (format !== "yaml" && format !== "json") throw usage("export", `--format must be yaml or json, got ${quoted(format)}`);
  const target = values["mock-url"] === undefined ? undefined : mockTarget("export", values["mock-url"], values["api-key"]);
  return { seed, scale, today: values.today, data: values.data, target, format, out: values.out };
}
