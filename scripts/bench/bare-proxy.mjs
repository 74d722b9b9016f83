// The proxy bench's baseline: a bare node:http reverse proxy that passes each request on and pipes
// the answer back, with a keep-alive pool, and checks nothing. Plain JavaScript, no loader.
//   node scripts/bench/bare-proxy.mjs <port> <upstream-url>
import http from "node:http";

const [port, upstream] = process.argv.slice(2);
const target = new URL(upstream);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
http
  .createServer((req, res) => {
    const outgoing = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    outgoing.on("error", () => res.writeHead(502).end());
    req.pipe(outgoing);
  })
  .listen(Number(port), "127.0.0.1", function () {
    process.stdout.write(`listening on ${this.address().port}\n`);
  });
process.on("SIGTERM", () => process.exit(0));
