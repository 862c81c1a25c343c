import type { AISdkChatGenerator, AISdkChatGeneratorOptions } from "toolwright/ai-sdk";
import type { CodegenOptions, GenerateToolSchemasResult } from "toolwright/codegen";
import type { OpenAIChatGenerator } from "toolwright/openai";
import type { ScriptEntry } from "toolwright/testing";
import type { Tool } from "toolwright";

/** Compiles only when every subpath the app imports resolves to its declarations (node10 reads typesVersions). */
export type SubpathTypes = [AISdkChatGenerator, AISdkChatGeneratorOptions, CodegenOptions, GenerateToolSchemasResult, OpenAIChatGenerator, ScriptEntry, Tool];
