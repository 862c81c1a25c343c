// Its own file, free of ajv's types: declarations that name it (injectedParameters, tool) stay
// readable by apps, which do not install ajv (it is bundled).
/**
 * Where a schema comes from. `user`: from outside the code (an MCP server's, a definition's, a
 * JSON Schema given to `new Tool`), checked against the JSON Schema meta-schema, its patterns
 * matched by RE2 in linear time (one RE2 cannot run is refused). `code`: zod's JSON form of a zod
 * schema in the code, checked against the meta-schema, its patterns run as `RegExp` (zod runs the
 * same `RegExp` anyway). `generated`: written by `toolwright codegen`, which only writes valid
 * schemas, compiled as it is, its patterns (from template literal types) run as `RegExp`.
 */
export type SchemaOrigin = "user" | "code" | "generated";
