import type { GeneratedToolEntry } from "./generatedEntry";
import { readToolSource } from "./signatureChange";
import { toolSignatureAt, toolSignatureCandidates } from "./toolSignature";

/**
 * Where a decorated tool is declared, as `file:line:col` (1-based) of the method's name or of its
 * `defineTool` call, for the messages of `ConfigurationError`s about it; the file alone when the
 * source cannot be read (production) or the declaration cannot be told apart from others.
 *
 * The generated module records only the file: a line there would change whenever code above the
 * tool moves, making `toolwright codegen --check` fail and `--watch` rewrite the module on every
 * edit. Where the source is readable (development, where these errors are met and fixed), the
 * declaration is found in it at registration, with the same scanner as the signature check: the
 * declaration whose signature hash codegen recorded, else (a changed signature) the first of the
 * method's declarations after its class.
 */
export function toolLocation(entry: GeneratedToolEntry, className: string | undefined): string {
  const text = readToolSource(entry.source);
  if (text === undefined) return entry.source;
  const candidates = toolSignatureCandidates(text, entry.member, entry.kind).filter((open) => toolSignatureAt(text, open) !== undefined);
  let open = entry.signature === undefined ? undefined : candidates.find((at) => toolSignatureAt(text, at)!.hash === entry.signature);
  if (open === undefined && entry.kind === "method") {
    const classAt = className === undefined ? -1 : text.search(new RegExp(`\\bclass\\s+${className.replace(/\$/g, "\\$")}\\b`));
    open = candidates.find((at) => at > classAt);
  }
  if (open === undefined && candidates.length === 1) open = candidates[0];
  if (open === undefined) return entry.source;
  const at = entry.kind === "method" ? text.lastIndexOf(entry.member, open) : text.lastIndexOf("defineTool", open);
  return `${entry.source}:${lineAndColumn(text, at)}`;
}

function lineAndColumn(text: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `${line}:${at - lineStart + 1}`;
}
