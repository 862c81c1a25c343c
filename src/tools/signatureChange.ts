import type { GeneratedToolEntry } from "./generatedEntry";
import { toolSignatureAt, toolSignatureCandidates } from "./toolSignature";

// Each source file is read once per process; a file that cannot be read is remembered as such.
const sources = new Map<string, string | undefined>();

/**
 * How a tool's signature in its source file differs from the one codegen hashed, or undefined when
 * it does not, when the entry has no hash, or when the source cannot be read (production: only the
 * built code is there; `NODE_ENV=production`; no file system). Reads the file once per process, at
 * registration, never per call. `className` narrows which declaration a message quotes.
 */
export function signatureChange(entry: GeneratedToolEntry, className: string | undefined): string | undefined {
  if (entry.signature === undefined) return undefined;
  const text = readToolSource(entry.source);
  if (text === undefined) return undefined;
  const candidates = toolSignatureCandidates(text, entry.member, entry.kind);
  const signatures = candidates.map((open) => ({ open, signature: toolSignatureAt(text, open) }));
  // No declaration by that name: the tool moved to another file, which the generated entry's other checks report.
  if (!signatures.some((s) => s.signature !== undefined)) return undefined;
  if (signatures.some((s) => s.signature?.hash === entry.signature)) return undefined;
  const classAt = className === undefined ? -1 : text.search(new RegExp(`\\bclass\\s+${className.replace(/\$/g, "\\$")}\\b`));
  const quoted = entry.kind === "method" ? (signatures.find((s) => s.signature && s.open > classAt) ?? signatures.find((s) => s.signature)) : undefined;
  return quoted?.signature
    ? `its signature is now ${quoted.signature.text}, which is not the one the generated schema was built from`
    : "its parameter or return types are not the ones the generated schema was built from";
}

/**
 * The text of a tool's source file (relative to the working directory), or undefined when it cannot
 * be read or `NODE_ENV` is `production`. Read once per process.
 */
export function readToolSource(file: string): string | undefined {
  if (sources.has(file)) return sources.get(file);
  let text: string | undefined;
  try {
    const env = typeof process === "object" ? process.env : undefined;
    if (env && env.NODE_ENV !== "production" && typeof process.cwd === "function") {
      const fs = require("node:fs") as typeof import("node:fs");
      const path = require("node:path") as typeof import("node:path");
      text = fs.readFileSync(path.resolve(process.cwd(), file), "utf8");
    }
  } catch {
    text = undefined;
  }
  sources.set(file, text);
  return text;
}

/** Forgets the source files read so far (for tests that change a file within one process). */
export function clearSignatureSources(): void {
  sources.clear();
}
