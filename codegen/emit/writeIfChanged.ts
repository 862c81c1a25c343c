import * as fs from "node:fs";
import * as path from "node:path";

/** Writes `content` to `file` only when it differs from what is there; returns whether it wrote. */
export function writeIfChanged(file: string, content: string): boolean {
  if (readIfExists(file) === content) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, file);
  return true;
}

/** The file's content, or undefined when there is no such file. */
export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
