// hr-service-contract/contract: the live contract suite as a library, for a CI job that wants the
// report as data (the hr-contract bin prints it and writes JUnit XML), and the receiver check, which
// grades a webhook receiver against the provider's rules by URL or in process (checkReceiver).
export { runContractSuite, KeyRefused, WrongBaseUrl, type SuiteOptions } from "./suite.js";
export { formatReport, type SuiteReport, type SuiteTotals } from "./report.js";
export { toJUnit } from "./junit.js";
export { Unreachable } from "./network.js";
export { main as runContractCli } from "./cli.js";
export {
  checkReceiver,
  type FetchHandler,
  type ReceiverCaseResult,
  type ReceiverCheckOptions,
  type ReceiverReport,
  type ReceiverTarget,
} from "./receiver/check.js";
export { formatReceiverReport, receiverJUnit } from "./receiver/report.js";
export { checkPact, type PactCheckOptions, type PactFinding, type PactKey, type PactReport, type PactSource } from "./pact/check.js";
export { pactJson } from "./pact/cli.js";
