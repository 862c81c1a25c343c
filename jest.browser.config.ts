import type { Config } from "jest";
import base from "./jest.config";

// `npm run test:browser`: the chat page (examples/web) driven in Debian's headless Chromium through
// playwright-core; kept out of `npm test` because it needs /usr/bin/chromium.
const typescript = base.projects![0] as Config;

const config: Config = {
  projects: [
    {
      ...typescript,
      displayName: "browser",
      roots: ["<rootDir>/test/browser"],
      testPathIgnorePatterns: ["/node_modules/"],
      moduleNameMapper: { ...typescript.moduleNameMapper, "^toolwright/ui$": "<rootDir>/src/ui/index.ts" },
    },
  ],
  testTimeout: 120_000,
};

export default config;
