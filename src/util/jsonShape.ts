/** Why a value from outside was refused before anything walked it recursively. */
export type ShapeProblem =
  | { readonly kind: "depth"; readonly path: PropertyKey[] }
  | { readonly kind: "protoKey"; readonly path: PropertyKey[] };

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly key: PropertyKey | undefined;
  readonly parent: Frame | undefined;
}

/**
 * Walks a parsed JSON value without recursion (so any depth is safe) and reports the first object
 * or array nested deeper than `maxDepth` levels, or, with `refuseProtoKeys`, the first own
 * `__proto__` key. The top-level object is level 1.
 */
export function findShapeProblem(value: unknown, maxDepth: number, refuseProtoKeys: boolean): ShapeProblem | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const stack: Frame[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  // A value shared by several parents (or a cycle) is walked again only when reached deeper, so
  // a shared graph costs at most its size times maxDepth, never exponential time.
  const deepestSeen = new Map<object, number>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return { kind: "depth", path: pathOf(frame) };
    if ((deepestSeen.get(frame.value) ?? 0) >= frame.depth) continue;
    deepestSeen.set(frame.value, frame.depth);
    const isArray = Array.isArray(frame.value);
    for (const key of Object.keys(frame.value)) {
      if (refuseProtoKeys && !isArray && key === "__proto__") return { kind: "protoKey", path: [...pathOf(frame), key] };
      const item = (frame.value as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") stack.push({ value: item, depth: frame.depth + 1, key: isArray ? Number(key) : key, parent: frame });
    }
  }
  return undefined;
}

/** True when a value nests deeper than `limit` levels (a scalar is 0, `{}` is 1); checked without recursion. */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  return findShapeProblem(value, limit, false) !== undefined;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}
