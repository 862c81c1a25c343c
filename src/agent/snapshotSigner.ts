import type * as Crypto from "node:crypto";
import { ConfigurationError } from "../errors";
import { canonicalJson } from "../util/canonicalJson";
import { describeKind } from "../util/describeValue";
import type { AgentSnapshot } from "./snapshot";
import { snapshotProblem } from "./snapshot";

/** A key for signing snapshots: text or bytes, at least 32 bytes. Several: the first signs, any verifies (key rotation). */
export type SnapshotKey = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

const prefix = "hmac-sha256:";

/** `node:crypto` on first use: loading it starts OpenSSL (~6 ms, ~2 MiB), which a run without a snapshot key never needs. */
let cryptoModule: typeof Crypto | undefined;
function crypto(): typeof Crypto {
  return (cryptoModule ??= require("node:crypto") as typeof Crypto);
}
const minimumKeyBytes = 32;

/**
 * Signs snapshots with HMAC-SHA256 over their canonical JSON (keys sorted, the signature left out)
 * and checks the signature of a snapshot given back, so a service may hand snapshots to clients:
 * an edited or unsigned one is refused.
 */
export class SnapshotSigner {
  readonly #keys: readonly Buffer[];

  constructor(key: SnapshotKey) {
    const keys = typeof key === "string" || key instanceof Uint8Array ? [key] : Array.isArray(key) ? (key as ReadonlyArray<unknown>) : undefined;
    if (!keys || keys.length === 0) throw keyProblem(`got ${describeKind(key)}`);
    this.#keys = keys.map((k, i) => {
      const bytes = typeof k === "string" ? Buffer.from(k, "utf8") : k instanceof Uint8Array ? Buffer.from(k) : undefined;
      if (!bytes) throw keyProblem(`key ${i} is ${describeKind(k)}`);
      if (bytes.length < minimumKeyBytes) throw keyProblem(`key ${i} has ${bytes.length} bytes`);
      return bytes;
    });
  }

  /** The snapshot with its `signature` (made with the first key). */
  sign(snapshot: AgentSnapshot): AgentSnapshot {
    return { ...unsigned(snapshot), signature: prefix + mac(this.#keys[0]!, snapshot) };
  }

  /** Throws `SnapshotError` (field `signature`) unless one of the keys made the snapshot's signature. */
  verify(snapshot: AgentSnapshot, signature: string | undefined): void {
    if (signature === undefined) throw snapshotProblem("signature", "is missing, and this Agent has a snapshotKey, so it resumes only snapshots it signed");
    if (!signature.startsWith(prefix)) throw snapshotProblem("signature", `does not start with '${prefix}'`);
    const given = Buffer.from(signature.slice(prefix.length), "base64url");
    const ok = this.#keys.some((key) => {
      const expected = Buffer.from(mac(key, snapshot), "base64url");
      return expected.length === given.length && crypto().timingSafeEqual(expected, given);
    });
    if (!ok) throw snapshotProblem("signature", "does not match its content: the snapshot was changed after it was signed, or signed with another key");
  }
}

function mac(key: Buffer, snapshot: AgentSnapshot): string {
  return crypto().createHmac("sha256", key).update(canonicalJson(unsigned(snapshot))).digest("base64url");
}

function unsigned(snapshot: AgentSnapshot): AgentSnapshot {
  const { signature: _signature, ...rest } = snapshot;
  return rest;
}

function keyProblem(detail: string): ConfigurationError {
  return new ConfigurationError(
    "Agent",
    `Agent has a snapshotKey that is not a key of at least ${minimumKeyBytes} bytes (${detail}); pass a secret string or bytes, such as the output of \`openssl rand -base64 32\`, or an array of them to rotate keys (the first signs).`,
  );
}
