/** How deep agents may call agents as tools (an agent that calls itself ends here). */
export const maxAgentNesting = 8;

/** The run option (a symbol: never a state key, never in JSON) that tells a sub-run how deep it is. */
export const nestedDepth = Symbol("toolwright.nestedDepth");
