import { subschemas } from "../tools/subschemas";

/** Where a schema refers to itself: the path of the `$ref` (JSON Pointer segments) and its text. */
export interface RecursiveReference {
  readonly path: readonly (string | number)[];
  readonly ref: string;
}

/**
 * The first `$ref` of a schema that leads back to a schema containing it (`$ref: "#"`, a `$defs`
 * entry that refers to itself, directly or through others), or undefined. Each schema is walked
 * once (a reference is followed to its target only while that target is not yet done), so the
 * search is linear in the schema's size. References that do not resolve to a place in the schema
 * are left to the schema compiler, which refuses them.
 */
export function findRecursiveReference(root: unknown): RecursiveReference | undefined {
  if (typeof root !== "object" || root === null) return undefined;
  type Step = { readonly node: object; readonly path: readonly (string | number)[]; readonly via?: RecursiveReference };
  const open = new Set<object>();
  const done = new Set<object>();
  // A stack, not recursion: a chain of references may be as long as the schema.
  const stack: { readonly node: object; readonly next: Step[]; index: number }[] = [];
  const enter = ({ node, path }: Step) => {
    open.add(node);
    const next: Step[] = [];
    const ref = (node as { $ref?: unknown }).$ref;
    const target = typeof ref === "string" ? resolvePointer(root, ref) : undefined;
    if (target) next.push({ ...target, via: { path: [...path, "$ref"], ref: ref as string } });
    for (const sub of subschemas(node, path)) next.push({ node: sub.schema as object, path: sub.path });
    stack.push({ node, next, index: 0 });
  };
  enter({ node: root, path: [] });
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const step = top.next[top.index++];
    if (step === undefined) {
      stack.pop();
      open.delete(top.node);
      done.add(top.node);
    } else if (open.has(step.node)) {
      return step.via;
    } else if (!done.has(step.node)) {
      enter(step);
    }
  }
  return undefined;
}

// A local reference (`#`, `#/$defs/node`) as the object it names and its path, or undefined.
function resolvePointer(root: unknown, ref: string): { node: object; path: string[] } | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  const path: string[] = [];
  let node: unknown = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
    path.push(segment);
  }
  return typeof node === "object" && node !== null ? { node, path } : undefined;
}
