import { describeKind } from "../util/describeValue";
import { agentOptions } from "./agentOptions";
import { option } from "./optionSpec";

/**
 * The options of `new ToolRunner(...)` that it checks itself (its tools and state schema are
 * checked as an Agent's are): `toolTimeoutMs` keeps the Agent's rule, in the runner's words.
 */
export const toolRunnerOptions = {
  toolTimeoutMs: option<number | undefined>({
    rule: agentOptions.toolTimeoutMs.rule,
    message: (value, subject) => `${subject} has a toolTimeoutMs that is not a positive number of milliseconds, got ${describeKind(value)}.`,
  }),
} as const;
