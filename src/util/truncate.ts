import { limits } from "./limits";

/**
 * Cuts text that came from outside (a tool name the model invented, a property name it sent)
 * before it is echoed back in a message: the first `maxEchoedNameLength` characters, then how long
 * it really was.
 */
export function truncateForEcho(text: string): string {
  if (text.length <= limits.maxEchoedNameLength) return text;
  return `${text.slice(0, limits.maxEchoedNameLength)}…(${text.length} characters)`;
}
