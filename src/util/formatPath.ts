/**
 * Formats a value path for messages: `filter.dateRange.from`, `items[2].name`, `(root)` for the
 * value itself.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** Turns a JSON Pointer (`/items/2/name`, as ajv reports) into a path list (`["items", 2, "name"]`). */
export function pointerToPath(pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
    });
}
