/** A fresh copy through JSON text: plain data the caller owns, in the caller's realm. The value must have a JSON form. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
