// Raw HTTP/1.1 on a socket, for requests fetch cannot send (an absolute-form target, OPTIONS *):
// what was written, and every answer read back until the server closes the connection.
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Writes `raw` to 127.0.0.1:port and collects the text until the server closes (or `waitMs`). */
export function rawExchange(port: number, raw: string, waitMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(text);
    }, waitMs);
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.write(raw);
  });
}

/** The answers in a connection's text (Content-Length framed), in order. */
export function rawAnswers(text: string): RawAnswer[] {
  const found: RawAnswer[] = [];
  const pattern = /HTTP\/1\.1 (\d{3})[^\r]*\r\n((?:[^\r]+\r\n)*)\r\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    const headers: Record<string, string> = {};
    for (const line of match[2].split("\r\n").filter(Boolean)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    const body = text.slice(pattern.lastIndex, pattern.lastIndex + length);
    pattern.lastIndex += length;
    found.push({ status: Number(match[1]), headers, body });
  }
  return found;
}

/** One request with `Connection: close`, its first answer. */
export async function rawRequest(port: number, requestLine: string, headers: Record<string, string> = {}): Promise<RawAnswer | undefined> {
  const lines = [requestLine, ...Object.entries({ Host: "127.0.0.1", ...headers, Connection: "close" }).map(([k, v]) => `${k}: ${v}`)];
  return rawAnswers(await rawExchange(port, `${lines.join("\r\n")}\r\n\r\n`))[0];
}
