/** Why a value from outside was refused before anything walked it recursively. */
export type ShapeProblem =
  | { readonly kind: "depth"; readonly path: PropertyKey[] }
  | { readonly kind: "protoKey"; readonly path: PropertyKey[] }
  | { readonly kind: "nonFinite"; readonly path: PropertyKey[]; readonly value: number };

/** What `findShapeProblem` refuses besides nesting deeper than `maxDepth`. */
export interface ShapeRules {
  /** Levels of objects and arrays allowed (the top-level object is level 1). */
  readonly maxDepth: number;
  /** Refuse an own `__proto__` key anywhere. */
  readonly refuseProtoKeys?: boolean;
  /**
   * Refuse `NaN`, `Infinity` and `-Infinity` anywhere: JSON has no such values (`JSON.parse` reads
   * `1e999` as `Infinity`, and `JSON.stringify` writes them all as `null`), so a value holding one
   * does not survive a snapshot, a queue or a trace unchanged.
   */
  readonly refuseNonFinite?: boolean;
}

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly key: PropertyKey | undefined;
  readonly parent: Frame | undefined;
}

// Values of this many objects or fewer are checked by a bounded recursion that allocates nothing
// (tool arguments, on the per-call path); larger ones by the walk below.
const quickCheckBudget = 2_000;

/**
 * Finds the first object or array nested deeper than `rules.maxDepth` levels, or the first value
 * another rule refuses. A non-finite top-level number is refused too; other scalars pass. Safe at
 * any depth and for shared or cyclic graphs: a cycle counts as too deep.
 */
export function findShapeProblem(value: unknown, rules: ShapeRules): ShapeProblem | undefined {
  if (rules.refuseNonFinite && typeof value === "number" && !Number.isFinite(value)) return { kind: "nonFinite", path: [], value };
  if (value === null || typeof value !== "object") return undefined;
  const budget = { left: quickCheckBudget };
  if (quickCheck(value, 1, rules, budget)) return undefined;
  return walk(value, rules);
}

/** True when a value nests deeper than `limit` levels (a scalar is 0, `{}` is 1); checked without deep recursion. */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  return findShapeProblem(value, { maxDepth: limit }) !== undefined;
}

// True when the value is certainly fine; false when it is not, or the budget ran out.
function quickCheck(value: object, depth: number, rules: ShapeRules, budget: { left: number }): boolean {
  if (depth > rules.maxDepth || --budget.left < 0) return false;
  const isArray = Array.isArray(value);
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (rules.refuseProtoKeys && !isArray && key === "__proto__") return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "number") {
      if (rules.refuseNonFinite && !Number.isFinite(item)) return false;
    } else if (item !== null && typeof item === "object" && !quickCheck(item, depth + 1, rules, budget)) return false;
  }
  return true;
}

function walk(value: object, rules: ShapeRules): ShapeProblem | undefined {
  const { maxDepth, refuseProtoKeys, refuseNonFinite } = rules;
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
      if (refuseNonFinite && typeof item === "number" && !Number.isFinite(item)) return { kind: "nonFinite", path: [...pathOf(frame), isArray ? Number(key) : key], value: item };
      if (item !== null && typeof item === "object") stack.push({ value: item, depth: frame.depth + 1, key: isArray ? Number(key) : key, parent: frame });
    }
  }
  return undefined;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) path.push(f.key);
  return path.reverse();
}
