// hr-service-contract/contract: the live contract suite as a library, for a CI job that wants the
// report as data (the hr-contract bin prints it and writes JUnit XML).
export { runContractSuite, KeyRefused, type SuiteOptions } from "./suite.js";
export { formatReport, type SuiteReport, type SuiteTotals } from "./report.js";
export { toJUnit } from "./junit.js";
export { Unreachable } from "./network.js";
export { main as runContractCli } from "./cli.js";
