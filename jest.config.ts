import type { Config } from "jest";
import { readFileSync } from "node:fs";

const exportsMap = (JSON.parse(readFileSync(`${__dirname}/package.json`, "utf8")) as { exports: Record<string, string | { default: string }> }).exports;

// `toolwright` and its subpaths as the package's `exports` resolve them: the built files in dist/.
const builtPackage = Object.fromEntries(
  Object.entries(exportsMap)
    .filter(([, target]) => typeof target === "object" && target.default.endsWith(".js"))
    .map(([subpath, target]) => [`^${subpath.replace(/^\./, "toolwright").replace(/[/]/g, "\\/")}$`, `<rootDir>/${(target as { default: string }).default.replace(/^\.\//, "")}`]),
);

// Type errors are caught by `npm run typecheck` (tsc over src, tests and examples); ts-jest only
// transpiles, which keeps the suite fast on small CI machines.
const typescript: Config = {
  displayName: "ts",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The fault suite and the browser suite run on their own: `npm run test:faults`, `npm run test:browser`.
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/faults/", "<rootDir>/test/browser/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  moduleNameMapper: {
    "^toolwright$": "<rootDir>/src/index.ts",
    "^toolwright/testing$": "<rootDir>/src/testing/index.ts",
    "^toolwright/openai$": "<rootDir>/src/chat/openai/index.ts",
    "^toolwright/bullmq$": "<rootDir>/src/bullmq/index.ts",
    "^toolwright/mcp$": "<rootDir>/src/mcp/index.ts",
    "^toolwright/otel$": "<rootDir>/src/otel/index.ts",
    "^toolwright/ai-sdk$": "<rootDir>/src/aisdk/index.ts",
    "^toolwright/yaml$": "<rootDir>/src/yaml/index.ts",
    "^toolwright/ui$": "<rootDir>/src/ui/index.ts",
    "^toolwright/conversations$": "<rootDir>/src/conversations/index.ts",
    "^toolwright/codegen$": "<rootDir>/codegen/index.ts",
  },
};

// Plain-JavaScript callers (test/**/*.test.js): no transform, and `require("toolwright")` loads the
// built package (`npm test` builds first), the way a JavaScript app gets it from node_modules.
const javascript: Config = {
  displayName: "js",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.js"],
  transform: {},
  moduleNameMapper: builtPackage,
};

const config: Config = {
  projects: [typescript, javascript],
  testTimeout: 20000,
};

export default config;
