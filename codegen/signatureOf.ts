import { SyntaxKind } from "ts-morph";
import { toolSignatureAt, toolSignatureCandidates } from "../src/tools/toolSignature";
import type { DiscoveredTool } from "./discoverTools";

/**
 * The hash of a tool's signature for the generated module (`GeneratedToolEntry.signature`), read
 * with the runtime's own scanner at the parameter list ts-morph found. Left out when the runtime
 * would not find that parameter list again by the tool's name (a quoted or computed method name),
 * so that it never reports a change that is not there.
 */
export function signatureOf(tool: DiscoveredTool): { signature?: string } {
  const open = tool.signature.getFirstChildByKind(SyntaxKind.OpenParenToken)?.getStart();
  if (open === undefined) return {};
  const text = tool.sourceFile.getFullText();
  const member = tool.kind === "method" ? tool.member : tool.ownerName;
  if (!toolSignatureCandidates(text, member, tool.kind).includes(open)) return {};
  const signature = toolSignatureAt(text, open);
  return signature ? { signature: signature.hash } : {};
}
