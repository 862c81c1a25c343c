/** The provider's rule for tool names: 1–64 characters of `[a-zA-Z0-9_-]`. Shared by the runtime and codegen. */
export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** True when `name` is a valid tool name. */
export function isValidToolName(name: string): boolean {
  return toolNamePattern.test(name);
}
