// http, https, net, tls: Prism's forwarder (proxy mode) needs them; the mock never forwards.
const refuse = (name) => () => {
  throw new Error(`${name} is not available in a browser: the mock never forwards requests`);
};
export const request = refuse("http.request");
export const get = refuse("http.get");
export const connect = refuse("net.connect");
export class Agent {}
export default { request, get, connect, Agent };
