// A `--state redis://[user:password@]host:port[/db]` address, checked where it enters. Every text
// that names it (the banner, an error line, a 503) uses `shown`, with the password masked.
import { STATE_FLAG, StateError } from "../state-error.js";

export interface RedisAddress {
  /** The address as lines and answers show it: the password replaced by `***`. */
  shown: string;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** Where a password given apart from the address came from (HR_MOCK_REDIS_PASSWORD, a file), for the lines about it. */
  passwordFrom?: string;
  /** Where the address came from (HR_MOCK_STATE), for the lines about it; default --state. */
  named?: string;
  tls: boolean;
}

/** Whether a --state value is a Redis address (the rest are directories). */
export function isRedisUrl(state: string): boolean {
  return /^rediss?:\/\//i.test(state.trim());
}

/** The address, or a StateError of one line naming what is wrong with it (never echoing a password). */
export function parseRedisUrl(text: string, name = STATE_FLAG): RedisAddress {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new StateError(`${name} ${maskPassword(text)} is not a Redis address; write it as redis://host:port[/db]`);
  }
  const tls = url.protocol === "rediss:";
  const password = url.password === "" ? undefined : decodeURIComponent(url.password);
  const username = url.username === "" ? undefined : decodeURIComponent(url.username);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const shownUrl = new URL(url.href);
  if (password !== undefined) shownUrl.password = "***";
  const shown = shownUrl.href.replace(/\/$/, "");
  if (host === "") throw new StateError(`${name} ${shown}: the address names no host; write it as redis://host:port`);
  const port = url.port === "" ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, "");
  if (!/^\d{0,5}$/.test(path)) throw new StateError(`${name} ${shown}: the database after the port must be a number (redis://host:port/0)`);
  if (url.search !== "" || url.hash !== "") throw new StateError(`${name} ${shown}: a Redis address takes no query or fragment`);
  return { shown, host, port, db: path === "" ? 0 : Number(path), tls, ...(username !== undefined && { username }), ...(password !== undefined && { password }) };
}

/** The address as a line about it begins: where it came from, and the address with its password masked. */
export function whereOf(address: RedisAddress): string {
  return `${address.named ?? STATE_FLAG} ${address.shown}`;
}

/** The password written in a Redis address, if any. */
export function passwordOf(text: string): string | undefined {
  try {
    const password = new URL(text.trim()).password;
    return password === "" ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

/** A text that may hold a password after `:` and before `@`, with it masked. */
export function maskPassword(text: string): string {
  return text.replace(/(\/\/[^/@:]*:)[^@/]*@/, "$1***@").slice(0, 200);
}
