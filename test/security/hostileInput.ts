// What hostile input looks like to the security properties (arguments from a model or an MCP client),
// and what each guarded tool accepts, checked independently of toolwright's validator.
import fc from "fast-check";
import type { Execution } from "./securityAgent";

/** The injected account owner: it must reach `transfer` from State only, and never appear in what goes back. */
export const secret = "owner-secret-7731";
const keys = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "query", "filter", "tag", "limit", "to", "amount", "memo", "owner", "json"];
const key = fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 }));
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant("owner-guess"));
const { value: jsonish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(key, tie("value"), { maxKeys: 5 })),
}));
/** An arguments object with prototype-ish keys, the guarded tools' parameter names, and junk, nested. */
export const argumentsObject = fc.dictionary(key, jsonish, { maxKeys: 6 });

// What each tool accepts, checked independently of toolwright's validator.
export function accepted(execution: Execution): boolean {
  const { args } = execution;
  const own = (name: string) => Object.hasOwn(args, name);
  const only = (allowed: string[]) => Object.keys(args).every((k) => allowed.includes(k));
  switch (execution.tool) {
    case "transfer":
      return only(["to", "amount", "memo", "owner"]) && typeof args.to === "string" && args.to.length > 0 && Number.isFinite(args.amount) && (args.amount as number) >= 0 && (!own("memo") || typeof args.memo === "string") && args.owner === secret;
    case "lookup": {
      const filter = args.filter as Record<string, unknown> | undefined;
      const filterOk = !own("filter") || (typeof filter === "object" && filter !== null && !Array.isArray(filter) && Object.keys(filter).every((k) => (k === "tag" ? typeof filter.tag === "string" : k === "limit" && Number.isSafeInteger(filter.limit))));
      return only(["query", "filter"]) && typeof args.query === "string" && filterOk;
    }
    case "save_profile":
      return only(["json"]) && typeof args.json === "string";
    default:
      return false;
  }
}

