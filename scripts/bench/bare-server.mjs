// The bench's baseline: a bare node:http server answering every request with the same bytes,
// the body the mock sends for the benchmarked request. Plain JavaScript, no framework, no loader.
//   node scripts/bench/bare-server.mjs <port> <body-file>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
  res.end(body);
}).listen(Number(port), "127.0.0.1", () => process.stdout.write(`listening on ${port}\n`));
process.on("SIGTERM", () => process.exit(0));
