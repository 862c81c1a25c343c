export { defineTool } from "./defineTool";
export type { DefinedTool } from "./defineTool";
export { ToolDecoratorError, ToolwrightError } from "./errors";
export { clearDecorations, decorationOf } from "./metadataStorage";
export type { ToolDecoration } from "./metadataStorage";
export { tool } from "./tool";
export type { ToolMethodDecorator } from "./tool";
export type { ToolDecoratorOptions } from "./toolOptions";
export type { Integer } from "./integer";
