/** What one value is found by. */
export interface SearchTexts {
  /** Its strings and numbers of three or more characters. */
  readonly leaves: string[];
  /** Its JSON, and that of the objects and arrays in its first levels. */
  readonly json: string[];
}

/** How much `searchTexts` collects before giving up. */
export interface SearchTextLimits {
  /** Strings and numbers, of any length and at any depth, across all the values. */
  readonly maxLeaves: number;
  /** Characters of all the texts together. */
  readonly maxChars: number;
}

// Objects and arrays deeper than this are found leaf by leaf only: the JSON of every level of a deep
// value would grow with the square of its depth.
const MAX_JSON_DEPTH = 8;

type Queued = { readonly item: unknown; readonly depth: number; readonly fromToJSON: boolean };

/**
 * The texts each value is found by: every string and number (and bigint) of three or more
 * characters at any depth, also inside what an object's `toJSON()` returns (a Date's ISO string)
 * and inside Maps and Sets; and the JSON of the value and of every object and array in its first
 * 8 levels. The walk is iterative and breadth-first and visits each object once, so any
 * depth and cycles are fine. Returns undefined, to withhold rather than leak, when the values exceed
 * `limits` or cannot be read (a getter or proxy that throws).
 */
export function searchTexts(values: readonly unknown[], limits: SearchTextLimits): SearchTexts[] | undefined {
  let leafCount = 0;
  let chars = 0;
  const all: SearchTexts[] = [];
  for (const value of values) {
    const texts: SearchTexts = { leaves: [], json: [] };
    const add = (into: string[], text: string): boolean => {
      if (text.length >= 3) into.push(text);
      return (chars += text.length) <= limits.maxChars;
    };
    const seen = new Set<object>();
    const queue: Queued[] = [{ item: value, depth: 0, fromToJSON: false }];
    for (let next = 0; next < queue.length; next++) {
      const { item, depth, fromToJSON } = queue[next]!;
      if (typeof item === "string" || typeof item === "bigint" || (typeof item === "number" && Number.isFinite(item))) {
        if (++leafCount > limits.maxLeaves || !add(texts.leaves, String(item))) return undefined;
        continue;
      }
      if (typeof item !== "object" || item === null || seen.has(item)) continue;
      seen.add(item);
      if (depth <= MAX_JSON_DEPTH) {
        const json = jsonOf(item);
        if (json !== undefined && !add(texts.json, json)) return undefined;
      }
      const children = childrenOf(item);
      if (children === undefined) return undefined;
      for (const child of children) queue.push({ item: child, depth: depth + 1, fromToJSON: false });
      const converted = fromToJSON ? undefined : toJSONOf(item);
      if (converted !== undefined) queue.push({ item: converted, depth, fromToJSON: true });
    }
    all.push(texts);
  }
  return all;
}

// What an object holds: its own enumerable values, a Map's keys and values, a Set's members.
function childrenOf(item: object): unknown[] | undefined {
  try {
    return item instanceof Map ? [...item.keys(), ...item.values()] : item instanceof Set ? [...item] : Object.values(item);
  } catch {
    return undefined;
  }
}

// What the object is in JSON when it has a toJSON(). JSON.stringify calls it once, not again on
// its result, and neither does the walk.
function toJSONOf(item: object): unknown {
  try {
    const toJSON = (item as { toJSON?: unknown }).toJSON;
    return typeof toJSON === "function" ? toJSON.call(item) : undefined;
  } catch {
    return undefined;
  }
}

function jsonOf(item: object): string | undefined {
  try {
    return JSON.stringify(item);
  } catch {
    // Circular, too deep for the stack, or a throwing toJSON: the tool cannot print this JSON either.
    return undefined;
  }
}
