/**
 * The build step as a library: the same analysis and generated module as `toolwright codegen`, for
 * build tools and watchers.
 * @module toolwright/codegen
 */
export type { CodegenOptions, ImportExtension } from "./config";
export { formatDiagnostic } from "./diagnostics";
export type { Diagnostic, DiagnosticCode } from "./diagnostics";
export { generateToolSchemas } from "./generateToolSchemas";
export type { GenerateToolSchemasOptions, GenerateToolSchemasResult } from "./generateToolSchemas";
export type { ToolModel } from "./model";
export type { AnalysisProgress } from "./generate";
export { watchToolSchemas } from "./watch";
export type { ToolSchemaWatcher, WatchEvent } from "./watch";
