import { registerChatGeneratorType } from "../chat/chatGeneratorTypes";

/** Lets agent definitions name `ScriptedChatGenerator`, with its script as messages. */
export function registerScriptedGeneratorType(): void {
  registerChatGeneratorType("ScriptedChatGenerator", {
    // Required when a definition names the type: an app that never reads a scripted definition never loads the testing module.
    fromDefinition: (options, path) => (require("./scriptedDefinition") as typeof import("./scriptedDefinition")).scriptedChatGeneratorFromDefinition(options, path),
  });
}
