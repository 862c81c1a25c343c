import * as path from "node:path";

// toolwright's own folders, as source (repo checkout) or compiled (dist/), found from where this
// module is: codegen never needs to look for tools in them.
const base = path.resolve(__dirname, "..");
const roots = path.basename(base) === "dist" ? [base, path.dirname(base)] : [base, path.join(base, "dist")];
const ownFolders = roots.flatMap((root) => ["src", "decorators", "codegen"].map((folder) => path.join(root, folder) + path.sep));

/**
 * True for a file of toolwright itself (its runtime, decorators or codegen), which a project pulls
 * into its program when it maps `toolwright` to the package's source. Skipping them keeps
 * analysis to the project's own files.
 */
export function isToolwrightOwnFile(file: string): boolean {
  const normalized = path.normalize(file);
  return ownFolders.some((folder) => normalized.startsWith(folder));
}
