// `hr-mock export`: the dataset as a data file, YAML or JSON, on stdout or into --out. Offline it
// builds the dataset from the flags serve takes (--seed, --scale, --today, --data); with --mock-url
// it reads a running mock's current dataset (triggers' changes included) through GET /_mock/data.
// `hr-mock serve --data` loads the file back to the same API answers.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { makeFolders } from "../../../src/contract/report-files.js";
import type { DataFile } from "../../data/data-file.js";
import type { DataFileFormat } from "../../data/format-data-file.js";
import { DEMO_KEY } from "../../keys/demo-keys.js";
import { SETTINGS, settingValue } from "../../app/settings.js";
import { askMock, asUsage, command, dataOr, DEFAULT_MOCK_URL, MOCK_TARGET_FLAGS, mockTarget, REPORT_TIMEOUT_MS, usage, type CommandLine, type Output } from "../command.js";
import { quoted } from "../../kernel/parse-error.js";

export const EXPORT_HELP = `Usage: hr-mock export [options]
       hr-mock export --pact --consumer <name> [--sandbox <id>] [--mock-url <url>] [--out <file>]

Writes the dataset as a data file that "hr-mock serve --data FILE" loads back to the same API
answers: every record, no derived value (working days, balances and counts are computed again).

With --pact it writes a running mock's request journal as a Pact specification V4 file instead
(through GET /_mock/requests?format=pact): one interaction per operation, caller, query names and
status; response bodies with matching rules read from the OpenAPI schemas; no API key written (a
verifier gets keys and ids from POST /_mock/pact/provider-states).

Options:
  --seed <n>              Dataset seed, an integer (default ${SETTINGS.seed.default}).
  --scale <x>             Multiplies employees and leave requests (default ${SETTINGS.scale.default}).
  --today <YYYY-MM-DD>    The dataset's "today" (default the data file's, else the real UTC date).
  --data <file>           Start from a data file, as serve does; what it leaves out is generated.
  --mock-url <url>        Export a running mock's current dataset instead (triggers' changes
                          included), through its control API GET /_mock/data; with --pact, the
                          mock whose journal to export (default ${DEFAULT_MOCK_URL}).
  --api-key <key>         With --mock-url: a key holding Manage Webhooks (default ${DEMO_KEY.org1WebhooksAdmin}).
  --format <yaml|json>    The file's format (default json when --out ends in .json, else yaml).
  --pact                  Export the journal as a Pact file (JSON) instead of the dataset.
  --consumer <name>       With --pact: the consumer's name the pact carries (required).
  --sandbox <id>          With --pact: the journal of this sandbox instead of the default world's.
  --out <file>            Write the file there (default stdout).
  -h, --help              Show this help.
`;

const EXPORT_FLAGS = {
  seed: { type: "string" },
  scale: { type: "string" },
  today: { type: "string" },
  data: { type: "string" },
  ...MOCK_TARGET_FLAGS,
  format: { type: "string" },
  out: { type: "string" },
  pact: { type: "boolean" },
  consumer: { type: "string" },
  sandbox: { type: "string" },
} as const;

/** Every mistake or failure throws an Error with one line (DataFileError: one per problem). */
export const exportCommand = command({ name: "export", flags: EXPORT_FLAGS, help: EXPORT_HELP }, async (line, io) => {
  const flags = exportFlags(line);
  if (flags.pact) {
    const { consumer, sandbox } = flags.pact;
    const query = { format: "pact" as const, consumer, ...(sandbox !== undefined && { sandbox }) };
    const pact = dataOr(await askMock(flags.target!, io.fetch, (control) => control.GET("/_mock/requests", { params: { query } }), REPORT_TIMEOUT_MS));
    return write(flags.out, `${JSON.stringify(pact, null, 2)}\n`, io.stdout);
  }
  // The dataset's builder, the data file reader and YAML are loaded to export, never for --help.
  const [{ datasetToDataFile }, { formatDataFile }] = await Promise.all([import("../../data/export.js"), import("../../data/format-data-file.js")]);
  const file = flags.target ? (dataOr(await askMock(flags.target, io.fetch, (control) => control.GET("/_mock/data"), REPORT_TIMEOUT_MS)) as DataFile) : await offline(flags, datasetToDataFile);
  write(flags.out, formatDataFile(file, flags.format), io.stdout);
});

function write(out: string | undefined, text: string, stdout: Output): void {
  if (out) {
    try {
      makeFolders(path.dirname(out));
      writeFileSync(out, text);
    } catch (error) {
      throw usage("export", `cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else stdout.write(text);
}

async function offline(flags: { seed: number; scale: number; today?: string; data?: string }, datasetToDataFile: (typeof import("../../data/export.js"))["datasetToDataFile"]): Promise<DataFile> {
  const [{ readDataFile }, { createDataset }] = await Promise.all([import("../../data/read-data-file.js"), import("../../data/dataset.js")]);
  const data = flags.data === undefined ? undefined : readDataFile(flags.data);
  try {
    return datasetToDataFile(createDataset({ seed: flags.seed, scale: flags.scale, today: flags.today, data }));
  } catch (error) {
    // A data file's today outside the dataset's years is createDataset's RangeError; a DataFileError passes through.
    if (error instanceof RangeError) throw usage("export", `--${error.message}`);
    throw error;
  }
}

function exportFlags({ values }: CommandLine<typeof EXPORT_FLAGS>) {
  const offlineFlags = ["seed", "scale", "today", "data"].filter((f) => values[f as keyof typeof values] !== undefined);
  if (values.pact) {
    if (offlineFlags.length > 0 || values.format !== undefined) throw usage("export", `--pact exports a running mock's journal; --${offlineFlags[0] ?? "format"} applies only without it`);
    if (values.consumer === undefined || values.consumer.trim() === "") throw usage("export", "--pact needs --consumer <name>, the consumer's name the pact carries");
    const target = mockTarget("export", values["mock-url"], values["api-key"]);
    return { target, format: "json" as const, out: values.out, pact: { consumer: values.consumer, sandbox: values.sandbox } };
  }
  const pactOnly = (["consumer", "sandbox"] as const).find((f) => values[f] !== undefined);
  if (pactOnly) throw usage("export", `--${pactOnly} applies only with --pact`);
  if (values["mock-url"] !== undefined && offlineFlags.length > 0) {
    throw usage("export", `--mock-url exports the running mock's dataset; --${offlineFlags[0]} applies only without it`);
  }
  const format = values.format ?? (values.out?.toLowerCase().endsWith(".json") ? "json" : "yaml");
  if (format !== "yaml" && format !== "json") throw usage("export", `--format must be yaml or json, got ${quoted(format)}`);
  const target = values["mock-url"] === undefined ? undefined : mockTarget("export", values["mock-url"], values["api-key"]);
  // The dataset's settings are serve's (the settings table's rows, app/settings.ts).
  const setting = <F extends "seed" | "scale" | "today">(flag: F) => asUsage("export", () => settingValue(flag, values[flag], `--${flag}`, true));
  return { seed: setting("seed"), scale: setting("scale"), today: setting("today"), data: values.data, target, format: format as DataFileFormat, out: values.out };
}
