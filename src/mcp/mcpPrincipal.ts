import { createHash } from "node:crypto";
import type * as http from "node:http";
import { describeKind } from "../util/describeValue";

/** Who sent a request: what a session is bound to. */
export interface RequestPrincipal {
  /** Compared with the session's: the principal `authenticate` named, or a digest of the Authorization header. */
  readonly key: string;
  /** What `authenticate` returned; undefined without it. */
  readonly principal: string | undefined;
}

/**
 * The principal of a request: `authenticate`'s answer, or (without it) the request's exact
 * `Authorization` header, kept as a SHA-256 digest so that no token stays in memory. A throw of
 * `authenticate` refuses the request (401); an answer that is not a non-empty string is a bug of
 * the server's own (500).
 */
export async function principalOf(
  request: http.IncomingMessage,
  authenticate: ((request: http.IncomingMessage) => string | Promise<string>) | undefined,
): Promise<{ readonly ok: true; readonly principal: RequestPrincipal } | { readonly ok: false; readonly status: 401 | 500; readonly message: string }> {
  if (!authenticate) {
    const header = request.headers.authorization ?? "";
    return { ok: true, principal: { key: `authorization:${createHash("sha256").update(header).digest("base64url")}`, principal: undefined } };
  }
  let principal: unknown;
  try {
    principal = await authenticate(request);
  } catch (error) {
    return { ok: false, status: 401, message: `the request was refused: ${(error as Error)?.message ?? String(error)}` };
  }
  if (typeof principal !== "string" || principal === "") {
    return { ok: false, status: 500, message: `serveMcp's authenticate returned ${describeKind(principal)}, not the id of who sent the request (a non-empty string).` };
  }
  return { ok: true, principal: { key: `principal:${principal}`, principal } };
}
