import fc from "fast-check";
import { z } from "zod";
import { checkAnswer, finalOutput } from "../../src/agent/finalOutput";
import { jsonSchemaFormat } from "../../src/chat/openai/openaiConverter";
import { openaiStrictViolations } from "../helpers/openaiStrictRules";

/** A zod schema, and values it accepts each with what a strict-mode model sends for it (`null` for every absent optional key). */
interface Node {
  readonly zod: z.ZodType;
  readonly sample: fc.Arbitrary<{ readonly value: unknown; readonly wire: unknown }>;
  /** Strict mode can express it (no open maps, tuples or discriminated unions). */
  readonly strictable: boolean;
  /** It accepts null itself: a `null` sent for it when optional is kept, as there is no telling it from "absent". */
  readonly nullable?: boolean;
  readonly [fc.toStringMethod]?: () => string;
}

const described = (zod: z.ZodType) => ({ [fc.toStringMethod]: () => JSON.stringify(z.toJSONSchema(zod, { io: "input" })) });

const same = (arb: fc.Arbitrary<unknown>) => arb.map((value) => ({ value, wire: value }));
const leaf = fc.constantFrom<Node>(
  { zod: z.string(), sample: same(fc.string({ maxLength: 5 })), strictable: true },
  { zod: z.string().min(2).describe("At least two."), sample: same(fc.string({ minLength: 2, maxLength: 5 })), strictable: true },
  // JSON has no -0.
  { zod: z.number(), sample: same(fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => n + 0)), strictable: true },
  { zod: z.number().int().min(0), sample: same(fc.nat()), strictable: true },
  { zod: z.boolean(), sample: same(fc.boolean()), strictable: true },
  { zod: z.enum(["low", "high"]), sample: same(fc.constantFrom("low", "high")), strictable: true },
  { zod: z.literal("fixed"), sample: same(fc.constant("fixed")), strictable: true },
  { zod: z.iso.datetime(), sample: same(fc.constant("2026-01-02T03:04:05Z")), strictable: true },
  { zod: z.record(z.string(), z.number()), sample: same(fc.dictionary(fc.constantFrom("a", "b"), fc.nat())), strictable: false },
  { zod: z.tuple([z.string(), z.number()]), sample: same(fc.tuple(fc.string(), fc.nat())), strictable: false },
);

function objectOf(fields: ReadonlyArray<{ readonly node: Node; readonly optional: boolean }>): Node {
  const shape = Object.fromEntries(fields.map(({ node, optional }, i) => [`k${i}`, optional ? node.zod.optional() : node.zod]));
  const sample = fc.tuple(...fields.map(({ node, optional }) => (optional ? fc.option(node.sample, { nil: undefined }) : node.sample))).map((samples) => {
    const value: Record<string, unknown> = {};
    const wire: Record<string, unknown> = {};
    samples.forEach((s, i) => {
      if (s !== undefined) value[`k${i}`] = s.value;
      else if (fields[i]!.node.nullable) value[`k${i}`] = null;
      wire[`k${i}`] = s === undefined ? null : s.wire;
    });
    return { value, wire };
  });
  const zod = z.object(shape);
  return { zod, sample, strictable: fields.every((f) => f.node.strictable), ...described(zod) };
}

const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(fc.record({ node: tie("node"), optional: fc.boolean() }), { minLength: 1, maxLength: 4 }).map(objectOf),
    tie("node").map((inner) => ({ zod: z.array(inner.zod), sample: fc.array(inner.sample, { maxLength: 3 }).map((items) => ({ value: items.map((i) => i.value), wire: items.map((i) => i.wire) })), strictable: inner.strictable })),
    tie("node").map((inner) => ({ zod: inner.zod.nullable(), sample: fc.option(inner.sample, { nil: null }).map((s) => s ?? { value: null, wire: null }), strictable: inner.strictable, nullable: true })),
  ),
})).node;

const outputSchema = fc.array(fc.record({ node, optional: fc.boolean() }), { minLength: 1, maxLength: 5 }).map(objectOf);

describe("finalOutput", () => {
  it("makes every output schema that can be strict into a request OpenAI's strict rules accept, and marks the others not strict", () => {
    fc.assert(
      fc.property(outputSchema, (schema) => {
        const format = finalOutput(schema.zod, "Agent")!.responseFormat;
        const sent = jsonSchemaFormat(format);
        expect(format.strict).toBe(schema.strictable);
        expect(sent.strict).toBe(schema.strictable);
        if (sent.strict) expect(openaiStrictViolations(sent.schema)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("checkAnswer", () => {
  it("reads a strict-mode answer (null for every absent optional key, at any depth) as the value the zod schema accepts", () => {
    fc.assert(
      fc.property(
        outputSchema.chain((schema) => fc.tuple(fc.constant(schema), schema.sample)),
        ([schema, { value, wire }]) => {
          const checked = checkAnswer(finalOutput(schema.zod, "Agent")!, JSON.stringify(wire));
          expect(checked).toEqual({ ok: true, value: schema.zod.parse(value) });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("maps nulls back inside nullable arrays of objects, recursive definitions and unions of objects", () => {
    type Tree = { name: string; note?: string; kids?: Tree[] };
    const tree: z.ZodType<Tree> = z.object({ name: z.string(), note: z.string().optional(), get kids() { return z.array(tree).optional(); } });
    const schema = z.object({
      rows: z.array(z.object({ id: z.string(), tag: z.string().optional() })).nullable(),
      tree,
      shape: z.union([z.object({ circle: z.number(), label: z.string().optional() }), z.object({ square: z.number(), label: z.string().optional(), color: z.string().optional() })]),
    });
    const wire = { rows: [{ id: "a", tag: null }], tree: { name: "r", note: null, kids: [{ name: "c", note: null, kids: null }] }, shape: { square: 2, label: null, color: null } };

    expect(checkAnswer(finalOutput(schema, "Agent")!, JSON.stringify(wire))).toEqual({ ok: true, value: { rows: [{ id: "a" }], tree: { name: "r", kids: [{ name: "c" }] }, shape: { square: 2 } } });
  });

  it("keeps a null the schema allows, and lets the default of an optional key apply", () => {
    const schema = z.object({ note: z.string().nullable(), size: z.number().optional().default(3), maybe: z.string().nullable().optional() });

    expect(checkAnswer(finalOutput(schema, "Agent")!, '{"note":null,"size":null,"maybe":null}')).toEqual({ ok: true, value: { note: null, size: 3, maybe: null } });
  });
});
