import { mergeLists, replaceValues } from "toolwright";

describe("mergeLists", () => {
  it("appends the incoming list to the current list", () => {
    expect(mergeLists([1, 2], [3, 4])).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
  ])("treats %s current as an empty list", (_label, current) => {
    expect(mergeLists<number>(current, [1, 2])).toEqual([1, 2]);
    expect(mergeLists<number>(current, 1)).toEqual([1]);
  });

  it("treats a non-list incoming value as a one-item list", () => {
    expect(mergeLists([1], 2)).toEqual([1, 2]);
  });

  it("treats a non-list current value as a one-item list", () => {
    expect(mergeLists(1, [2, 3])).toEqual([1, 2, 3]);
  });

  it("makes a two-item list of two non-list values", () => {
    expect(mergeLists("a", "b")).toEqual(["a", "b"]);
  });

  it("keeps null and undefined incoming values as items", () => {
    expect(mergeLists<number | null>([1], null)).toEqual([1, null]);
    expect(mergeLists<number | undefined>([1], undefined)).toEqual([1, undefined]);
  });

  it("unwraps one level of list only", () => {
    expect(mergeLists([[1]], [[2], [3]])).toEqual([[1], [2], [3]]);
  });

  it("returns a new list, not either input", () => {
    const current = [1];
    const incoming = [2];
    const empty: number[] = [];
    expect(mergeLists(current, incoming)).not.toBe(current);
    expect(mergeLists(undefined, incoming)).not.toBe(incoming);
    expect(mergeLists(empty, incoming)).not.toBe(incoming);
    expect(mergeLists(current, empty)).not.toBe(current);
  });

  it("does not mutate either input", () => {
    const item = { n: 1 };
    const current = Object.freeze([item]);
    const incoming = Object.freeze([{ n: 2 }]);
    const merged = mergeLists<{ n: number }>(current as { n: number }[], incoming as { n: number }[]);
    expect(merged).toEqual([{ n: 1 }, { n: 2 }]);
    expect(current).toEqual([{ n: 1 }]);
    expect(incoming).toEqual([{ n: 2 }]);
    merged.push({ n: 3 });
    expect(current).toHaveLength(1);
  });

  it("keeps the items themselves by reference", () => {
    const item = { n: 1 };
    expect(mergeLists([item], [])[0]).toBe(item);
  });
});

describe("replaceValues", () => {
  it("returns the incoming value", () => {
    expect(replaceValues("old", "new")).toBe("new");
  });

  it("returns the incoming value when there is no current value", () => {
    expect(replaceValues(undefined, 3)).toBe(3);
  });

  it("returns the incoming object itself, not a copy or a merge", () => {
    const incoming = { b: 2 };
    expect(replaceValues<Record<string, number>>({ a: 1 }, incoming)).toBe(incoming);
  });

  it("returns an incoming list instead of appending it", () => {
    expect(replaceValues([1, 2], [3])).toEqual([3]);
  });

  it("returns an incoming null or undefined", () => {
    expect(replaceValues<string | null>("old", null)).toBeNull();
    expect(replaceValues<string | undefined>("old", undefined)).toBeUndefined();
  });
});
