import * as fs from "node:fs";
import { Project } from "ts-morph";
import { CodegenConfigError } from "./configError";

export { CodegenConfigError };

/** Loads the TypeScript program of a tsconfig once; every later stage shares it. */
export function loadProject(tsConfigFilePath: string): Project {
  if (!fs.existsSync(tsConfigFilePath)) {
    throw new CodegenConfigError(`tsconfig ${tsConfigFilePath} does not exist; pass --project <path to tsconfig.json>.`);
  }
  return new Project({ tsConfigFilePath });
}
