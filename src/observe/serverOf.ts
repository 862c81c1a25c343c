import { nameOf } from "./eventFields";

const defaultPorts: Readonly<Record<string, number>> = { "http:": 80, "https:": 443 };

/**
 * The host and port of a generator's `serverUrl`, for `server.address` and `server.port`: an
 * http(s) URL's host (cut to 64 characters, an IPv6 address without its brackets) and its port, or
 * its scheme's default. Anything else (not a string, not a URL, longer than 2,048 characters) gives
 * neither.
 */
export function serverOf(url: unknown): { readonly address: string | undefined; readonly port: number | undefined } {
  if (typeof url !== "string" || url.length > 2048 || !URL.canParse(url)) return noServer;
  const parsed = new URL(url);
  const defaultPort = defaultPorts[parsed.protocol];
  if (defaultPort === undefined) return noServer;
  const address = nameOf(parsed.hostname.replace(/^\[(.*)\]$/, "$1"));
  return address === undefined ? noServer : { address, port: parsed.port === "" ? defaultPort : Number(parsed.port) };
}

const noServer = Object.freeze({ address: undefined, port: undefined });
