// `hr-mock coverage`: what a world's requests covered of the contract, from a running mock's
// GET /_mock/coverage: a table of the read API's operations (requests, statuses seen of those
// declared, parameters used of those declared) and of the event types delivered, the JSON report
// into --json (the format hr-contract --coverage writes too), and exit status 1 below --min.
import { writeFileSync } from "node:fs";
import { neverExercised, type CoverageReport } from "../../../src/coverage/report.js";
import { formatCoverage } from "../../../src/coverage/table.js";
import { askMock, command, dataOr, decimal, MOCK_TARGET_FLAGS, MOCK_TARGET_HELP, mockTarget, nonEmpty, REPORT_TIMEOUT_MS, usage } from "../command.js";

export const COVERAGE_HELP = `Usage: hr-mock coverage [options]

Reports what the requests a running mock's world received covered of the contract (GET
/_mock/coverage): every operation of the read API with its requests, the statuses it declares
against those answered and the parameters it declares against those used; every event type with
its deliveries to the world's endpoints and how they answered. The world is the key's: the demo
keys' default world, or a sandbox (use the sandbox's key).

Options:
${MOCK_TARGET_HELP}
  --min <percent>    Exit with status 1 when fewer than this percentage of the read API's
                     operations were exercised (0 to 100), naming those never exercised.
  --json <file>      Also write the report as JSON (the format hr-contract --coverage writes).
  -h, --help         Show this help.

Exit status: 0 the report was made (and met --min), 1 below --min, or the mock answered a
failure or could not be reached, 2 bad input.
`;

const FLAGS = { ...MOCK_TARGET_FLAGS, min: { type: "string" }, json: { type: "string" } } as const;

export const coverageCommand = command({ name: "coverage", flags: FLAGS, help: COVERAGE_HELP }, async ({ values }, io) => {
  const target = mockTarget("coverage", values["mock-url"], values["api-key"]);
  const min = values.min === undefined ? undefined : decimal("coverage", "--min", values.min, (x) => x >= 0 && x <= 100, "a percentage from 0 to 100");
  const json = values.json === undefined ? undefined : nonEmpty("coverage", "--json", values.json);
  const report = dataOr(await askMock(target, io.fetch, (control) => control.GET("/_mock/coverage"), REPORT_TIMEOUT_MS)) as CoverageReport;
  io.stdout.write(formatCoverage(report));
  if (json !== undefined) {
    try {
      writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
    } catch (error) {
      throw usage("coverage", `cannot write --json ${json}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (min !== undefined && report.api.percent < min) {
    const never = neverExercised(report).operations.map((o) => o.operationId);
    throw new Error(`${report.api.percent}% of the read API's operations were exercised, below --min ${min}; never exercised: ${never.join(", ")}`);
  }
});
