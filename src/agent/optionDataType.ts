import type { z as zodNamespace } from "zod";
import type { DataRule, OptionData } from "./optionSpec";

type Zod = typeof zodNamespace;

/** The rule a name breaks, in definition messages. */
const nameRule = "must be a name of 1 to 200 characters";

/**
 * The zod type of an option given as data in an agent definition, read from its spec: the
 * definition's rule, every check with the definition message (the rule and the fix;
 * `readDefinition` adds the path and what was found), optional, with its description for the
 * published JSON Schema. Takes zod as a parameter: an Agent made in code never loads it.
 */
export function optionDataType(z: Zod, data: OptionData): zodNamespace.ZodOptional<zodNamespace.ZodType> {
  return ruleType(z, data.rule, data.what).optional().meta({ description: data.description });
}

/** A definition's name (a registry entry, a tool, a state key): a string of 1 to 200 characters, `what` saying which. */
export function nameDataType(z: Zod, what: string): zodNamespace.ZodString {
  const error = `${nameRule} (${what})`;
  return z.string({ error }).min(1, { error }).max(200, { error });
}

/** A definition's free text of at most `max` characters, `what` saying which. */
export function textDataType(z: Zod, what: string, max: number): zodNamespace.ZodString {
  return z.string({ error: `must be a string (${what})` }).max(max, { error: `must be at most ${max} characters (${what})` });
}

function ruleType(z: Zod, rule: DataRule, what: string | undefined): zodNamespace.ZodType {
  switch (rule.kind) {
    case "integer": {
      const error = `must be a whole number from ${rule.min} to ${rule.max}${what === undefined ? "" : ` (${what})`}`;
      return z.number({ error }).int({ error }).min(rule.min, { error }).max(rule.max, { error });
    }
    case "name":
      return nameDataType(z, what ?? "a name");
    case "text":
      return textDataType(z, what ?? "text", rule.maxLength);
    case "boolean":
      return z.boolean({ error: "must be true or false" });
    case "list":
      return z.array(ruleType(z, rule.items, what), { error: rule.notList }).min(rule.minItems, { error: rule.tooFew });
  }
}
