/**
 * The limits `readYamlDefinition` applies to a definition file, which is untrusted input. Each
 * breach is a `DefinitionError` that names the limit.
 */
export const yamlLimits = Object.freeze({
  /** A definition file may be this many bytes (UTF-8) at most: 1 MiB. */
  maxFileBytes: 1_048_576,
  /** Mappings and sequences may nest this many levels (the top-level mapping is level 1). */
  maxDepth: 100,
  /**
   * Aliases (`*name`) may add this many values (scalars, mappings and sequences) to the data at
   * most, in the whole file: a small file cannot expand into a huge definition ("billion laughs").
   */
  maxAliasNodes: 10_000,
});

/** Why a definition that nests deeper than `yamlLimits.maxDepth` is refused, and the fix. */
export const depthLimitReason = `nests mappings and sequences more than ${yamlLimits.maxDepth} levels deep, the limit for a definition file; flatten it.`;
