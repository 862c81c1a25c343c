import type { Config } from "jest";

// Type errors are caught by `npm run typecheck` (tsc over src, tests and examples); ts-jest only
// transpiles, which keeps the suite fast on small CI machines.
const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
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
    "^toolwright/codegen$": "<rootDir>/codegen/index.ts",
  },
  testTimeout: 20000,
};

export default config;
