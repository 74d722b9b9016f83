// pino in a browser build: the logger Prism's pipeline is given (prism-core's createLogger). The
// mock asks it for level "silent" (mock/pipeline/dispatch.ts), so it logs nothing; pino's own
// browser build does not make the custom level prism-core adds ("success", which Prism's mocker
// calls), and a `Prefer` answer failed on it. This one has every level Prism calls, each doing
// nothing, and the level values createLogger reads. CommonJS, as prism-core requires it.
const noop = () => {};
const LEVELS = ["fatal", "error", "warn", "info", "success", "debug", "trace"];

function silentLogger() {
  const logger = { level: "silent", child: () => logger, isLevelEnabled: () => false };
  for (const level of LEVELS) logger[level] = noop;
  return logger;
}

function pino() {
  return silentLogger();
}
pino.levels = { values: { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10 } };

module.exports = pino;
module.exports.default = pino;
module.exports.pino = pino;
