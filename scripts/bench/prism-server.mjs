// Prism's own mock server for the benchmark: what `prism mock <spec> --errors=false --verboseLevel
// error` starts (Prism's HTTP server package with the CLI's static-mode configuration), without the
// CLI's 55 further packages (argument parsing, pretty logging, file watching) that the bench never uses.
// Usage: node scripts/bench/prism-server.mjs <spec> <port>
import { createLogger } from "@stoplight/prism-core";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";

const [spec, port] = process.argv.slice(2);
const operations = await getHttpOperationsFromSpec(spec);
const config = {
  isProxy: false,
  validateRequest: true,
  validateResponse: true,
  checkSecurity: true,
  errors: false,
  upstreamProxy: undefined,
  mock: { dynamic: false },
};
const server = createServer(operations, { cors: true, config, components: { logger: createLogger("prism", { level: "error" }) } });
await server.listen(Number(port), "127.0.0.1");
