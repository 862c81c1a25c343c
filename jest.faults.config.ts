import type { Config } from "jest";
import base from "./jest.config";

// `npm run test:faults`: the fault suite (test/faults), real redis-server and worker processes killed,
// paused and starved on purpose; kept out of `npm test` for its length.
const typescript = base.projects![0] as Config;

const config: Config = {
  projects: [{ ...typescript, displayName: "faults", roots: ["<rootDir>/test/faults"], testPathIgnorePatterns: ["/node_modules/"] }],
  testTimeout: 120_000,
};

export default config;
