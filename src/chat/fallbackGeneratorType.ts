import { registerChatGeneratorType } from "./chatGeneratorTypes";

// Required when a definition names the type, as the other types' readers are.
function readers(): typeof import("./fallbackDefinition") {
  return require("./fallbackDefinition") as typeof import("./fallbackDefinition");
}

/** Lets agent definitions name `FallbackChatGenerator`, its `generators` as nested generator definitions. */
export function registerFallbackGeneratorType(): void {
  registerChatGeneratorType("FallbackChatGenerator", {
    fromDefinition: (options, path, context) => readers().fallbackChatGeneratorFromDefinition(options, path, context),
    check: (options, path, context) => readers().checkFallbackChatGeneratorDefinition(options, path, context),
  });
}
