import * as fs from "node:fs";
import { Project } from "ts-morph";

/** Loads the TypeScript program of a tsconfig once; every later stage shares it. */
export function loadProject(tsConfigFilePath: string): Project {
  if (!fs.existsSync(tsConfigFilePath)) {
    throw new CodegenConfigError(`tsconfig ${tsConfigFilePath} does not exist; pass --project <path to tsconfig.json>.`);
  }
  return new Project({ tsConfigFilePath });
}

/** Bad codegen options or setup: reported as one line, exit code 2. */
export class CodegenConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
