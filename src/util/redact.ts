/**
 * Replaces every occurrence of the given secret values in `text` with `[<label>]`. Strings and
 * numbers of three or more characters are redacted (shorter ones carry too little to leak and
 * would mangle unrelated text), also as they appear inside a JSON string; objects and arrays are
 * redacted leaf by leaf and as JSON.
 */
export function redactValues(text: string, values: ReadonlyArray<{ readonly label: string; readonly value: unknown }>): string {
  const needles: Array<{ needle: string; label: string }> = [];
  for (const { label, value } of values) collectNeedles(value, label, needles, 0);
  needles.sort((a, b) => b.needle.length - a.needle.length);
  // Longest first, through placeholders: a shorter needle must not match inside a label already written.
  let out = text;
  needles.forEach(({ needle }, i) => (out = out.split(needle).join(placeholder(i))));
  needles.forEach(({ label }, i) => (out = out.split(placeholder(i)).join(`[${label}]`)));
  return out;
}

function placeholder(index: number): string {
  return `\uE000${String.fromCharCode(0xe100 + index)}\uE001`;
}

function collectNeedles(value: unknown, label: string, into: Array<{ needle: string; label: string }>, depth: number): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") {
    const needle = String(value);
    if (needle.length >= 3) into.push({ needle, label });
    const escaped = typeof value === "string" ? JSON.stringify(value).slice(1, -1) : needle;
    if (escaped !== needle && escaped.length >= 3) into.push({ needle: escaped, label });
    return;
  }
  if (value instanceof Date) {
    into.push({ needle: value.toISOString(), label });
    return;
  }
  if (typeof value === "object") {
    try {
      const json = JSON.stringify(value);
      if (json && json.length >= 3) into.push({ needle: json, label });
    } catch {
      // no JSON form: its leaves are still redacted below
    }
    for (const item of Object.values(value as Record<string, unknown>)) collectNeedles(item, label, into, depth + 1);
  }
}
