export { ScriptedChatGenerator } from "./scriptedChatGenerator";
export type { ScriptEntry } from "./scriptedChatGenerator";
export { toolCallReply } from "./toolCallReply";
