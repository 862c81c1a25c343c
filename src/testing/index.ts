/**
 * A scripted model (`ScriptedChatGenerator`) for tests and offline examples.
 * @module toolwright/testing
 */
import { registerScriptedGeneratorType } from "./scriptedGeneratorType";
export { ScriptedChatGenerator } from "./scriptedChatGenerator";
export type { ScriptEntry } from "./scriptedChatGenerator";
export { scriptedChatGeneratorFromDefinition } from "./scriptedDefinition";
export { toolCallReply } from "./toolCallReply";

registerScriptedGeneratorType();
