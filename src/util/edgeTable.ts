/**
 * The edges of a trie over UTF-16 code units, `(node, code unit) → child`, in one open-addressing
 * hash table in a typed array: far smaller and faster than a Map once there are millions of edges.
 */
export class EdgeTable {
  // TypeScript-private, not #private, like NeedleAutomaton's: this is the scan's innermost call.
  // Three numbers per slot, side by side so that a probe reads one cache line: node, unit, child.
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** A table for up to `capacity` edges. */
  constructor(capacity: number) {
    let size = 2;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size * 3).fill(-1);
    this.mask = size - 1;
  }

  /** The child of `node` along `unit`, or -1. */
  get(node: number, unit: number): number {
    for (let slot = this.slot(node, unit); ; slot = (slot + 1) & this.mask) {
      const at = slot * 3;
      const from = this.slots[at];
      if (from === -1) return -1;
      if (from === node && this.slots[at + 1] === unit) return this.slots[at + 2];
    }
  }

  /** Adds the edge; `node` must not have one along `unit` yet. */
  set(node: number, unit: number, child: number): void {
    let slot = this.slot(node, unit);
    while (this.slots[slot * 3] !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot * 3] = node;
    this.slots[slot * 3 + 1] = unit;
    this.slots[slot * 3 + 2] = child;
  }

  private slot(node: number, unit: number): number {
    const hash = Math.imul(node ^ Math.imul(unit, 0x85ebca6b), 0x9e3779b1);
    return (hash ^ (hash >>> 16)) & this.mask;
  }
}
