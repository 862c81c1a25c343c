// The error classes as a JavaScript app meets them in the built package: "toolwright/codegen" loads
// its own modules (dist/codegen, dist/decorators) beside the runtime bundle that "toolwright" loads,
// so its errors are of another copy of the classes, which `instanceof` still recognises.
"use strict";

const path = require("node:path");
const { ConfigurationError, ProviderError, ToolwrightError, UsageError } = require("toolwright");
const { generateToolSchemas } = require("toolwright/codegen");

describe("ToolwrightError (built package)", () => {
  it("recognises a codegen error, of codegen's own copy of the classes, as a ToolwrightError and a UsageError", async () => {
    const project = path.join(__dirname, "no-such-tsconfig.json");

    const error = await generateToolSchemas({ project }).then(
      () => undefined,
      (thrown) => thrown,
    );

    expect(error.name).toBe("CodegenConfigError");
    expect(error.message).toBe(`tsconfig ${project} does not exist; pass --project <path to tsconfig.json>.`);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf(error))).constructor).not.toBe(ToolwrightError);
    expect(error).toBeInstanceOf(ToolwrightError);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(ConfigurationError);
  });
});
