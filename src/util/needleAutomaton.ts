import { EdgeTable } from "./edgeTable";

/** Where a needle occurs in a text (`start` inclusive, `end` exclusive), and the tag it was given. */
export interface Match {
  readonly start: number;
  readonly end: number;
  readonly tag: number;
}

/**
 * An Aho-Corasick automaton over a set of needles, compared exactly, code unit by code unit: built
 * in time linear in the needles, it scans a text in time linear in the text. Not modern-ahocorasick:
 * that library matches whole grapheme clusters, so a secret followed by a combining mark in the
 * text would go unmatched, and redaction must fail closed.
 */
export class NeedleAutomaton {
  // TypeScript-private rather than #private: Node 20 runs the per-character loop several times
  // slower through #private methods.
  private readonly edges: EdgeTable;
  // The root's edges, by code unit (0 for none): most of a scan is spent at the root.
  private readonly rootEdges = new Int32Array(0x10000);
  private readonly fail: Int32Array;
  // For each node, the longest needle that ends there (0 for none) and its tag.
  private readonly longest: Int32Array;
  private readonly longestTag: Int32Array;

  /** `tags[i]` is reported for `needles[i]`; of two equal needles, the first one's tag. */
  constructor(needles: readonly string[], tags: readonly number[]) {
    let capacity = 1;
    for (const needle of needles) capacity += needle.length;
    this.edges = new EdgeTable(capacity);
    const depth = new Int32Array(capacity);
    const parent = new Int32Array(capacity);
    const unit = new Uint16Array(capacity);
    const ownTag = new Int32Array(capacity).fill(-1);
    let nodes = 1;
    needles.forEach((text, index) => {
      let node = 0;
      for (let i = 0; i < text.length; i++) {
        const codeUnit = text.charCodeAt(i);
        let next = this.child(node, codeUnit);
        if (next === 0) {
          next = nodes++;
          if (node === 0) this.rootEdges[codeUnit] = next;
          else this.edges.set(node, codeUnit, next);
          depth[next] = i + 1;
          parent[next] = node;
          unit[next] = codeUnit;
        }
        node = next;
      }
      if (ownTag[node] === -1) ownTag[node] = tags[index]!;
    });

    // A node's failure link is the node of the longest proper suffix of its text; the longest
    // needle ending at a node is its own text if a needle ends there, else its failure link's.
    this.fail = new Int32Array(nodes);
    this.longest = new Int32Array(nodes);
    this.longestTag = new Int32Array(nodes);
    for (const node of byDepth(depth.subarray(0, nodes))) {
      if (depth[node] > 1) this.fail[node] = this.step(this.fail[parent[node]], unit[node]);
      const tag = ownTag[node];
      this.longest[node] = tag === -1 ? this.longest[this.fail[node]] : depth[node];
      this.longestTag[node] = tag === -1 ? this.longestTag[this.fail[node]] : tag;
    }
  }

  /** For each position of `text` where needles end, the longest of them: every occurrence of every needle lies inside one of these. */
  longestMatches(text: string): Match[] {
    const matches: Match[] = [];
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      const length = this.longest[node];
      if (length > 0) matches.push({ start: i + 1 - length, end: i + 1, tag: this.longestTag[node] });
    }
    return matches;
  }

  private child(node: number, codeUnit: number): number {
    if (node === 0) return this.rootEdges[codeUnit];
    const child = this.edges.get(node, codeUnit);
    return child === -1 ? 0 : child;
  }

  private step(from: number, codeUnit: number): number {
    for (let node = from; node !== 0; node = this.fail[node]) {
      const next = this.child(node, codeUnit);
      if (next !== 0) return next;
    }
    return this.rootEdges[codeUnit];
  }
}

// The nodes other than the root, shallowest first (a counting sort by depth): a failure link
// points to a shallower node, so links are computed in this order.
function byDepth(depth: Int32Array): Int32Array {
  let deepest = 0;
  for (const d of depth) if (d > deepest) deepest = d;
  const next = new Int32Array(deepest + 2);
  for (const d of depth) next[d + 1]++;
  for (let d = 1; d < next.length; d++) next[d] += next[d - 1];
  const order = new Int32Array(depth.length);
  for (let node = 0; node < depth.length; node++) order[next[depth[node]]++] = node;
  return order.subarray(1);
}
