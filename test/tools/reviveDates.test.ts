import { reviveDates } from "../../src/tools/reviveDates";
import type { JsonSchema } from "toolwright";

const schema: JsonSchema = {
  type: "object",
  properties: {
    at: { type: "string", format: "date-time" },
    label: { type: "string", format: "date-time" },
    events: { type: "array", items: { $ref: "#/$defs/Event" } },
    pair: { type: "array", prefixItems: [{ type: "string", format: "date-time" }, { type: "string" }] },
    byDay: { type: "object", additionalProperties: { type: "string", format: "date-time" } },
    maybe: { anyOf: [{ type: "object", properties: { when: { type: "string", format: "date-time" } } }, { type: "null" }] },
  },
  $defs: { Event: { type: "object", properties: { at: { type: "string", format: "date-time" }, next: { $ref: "#/$defs/Event" } } } },
};
const pointers = new Set([
  "#/properties/at",
  "#/$defs/Event/properties/at",
  "#/properties/pair/prefixItems/0",
  "#/properties/byDay/additionalProperties",
  "#/properties/maybe/anyOf/0/properties/when",
]);
const iso = "2026-11-21T10:00:00.000Z";

describe("reviveDates", () => {
  it("turns strings at the listed pointers into Dates, through $ref, prefixItems, records and anyOf", () => {
    const input = { at: iso, label: iso, events: [{ at: iso, next: { at: iso } }], pair: [iso, iso], byDay: { mon: iso }, maybe: { when: iso } };
    const out = reviveDates(input, schema, pointers) as typeof input;
    const date = new Date(iso);
    expect(out).toEqual({ at: date, label: iso, events: [{ at: date, next: { at: date } }], pair: [date, iso], byDay: { mon: date }, maybe: { when: date } });
  });

  it("leaves the input untouched and null branches alone", () => {
    const input = Object.freeze({ at: iso, maybe: null });
    const out = reviveDates(input, schema, pointers);
    expect(out).toEqual({ at: new Date(iso), maybe: null });
    expect(input.at).toBe(iso);
  });
});
