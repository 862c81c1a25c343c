// Runs the code of every guide in docs/ (each docs/<guide>.md shows regions of
// examples/docs/<guide>/main.ts; examples/docs/readme is README.md's quickstart): `npm run example:docs`. Each guide's `run` asserts what its guide
// says happens, so a guide whose code stops working fails here and in `npm test`.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The guides that have code, by directory name (the name of their page in docs/). */
export const guides = readdirSync(__dirname, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The page a guide's code belongs to: `docs/<guide>.md`, or README.md for `readme`. */
export function pageOf(guide: string): string {
  return guide === "readme" ? "README.md" : `docs/${guide}.md`;
}

/** What a guide's main.ts exports: its code, and the environment variables naming servers it needs (like REDIS_URL). */
interface GuideModule {
  run(): Promise<void>;
  needs?: readonly string[];
}

/**
 * Runs one guide's code; it throws (an AssertionError or the library's error) when the guide is
 * wrong. Returns the variables it needs that are not set, without running, when there are some.
 */
export async function runGuide(guide: string): Promise<string[]> {
  const module = (await import(join(__dirname, guide, "main"))) as GuideModule;
  const missing = (module.needs ?? []).filter((name) => !process.env[name]);
  if (missing.length === 0) await module.run();
  return missing;
}

if (require.main === module) {
  (async () => {
    for (const guide of guides) {
      const missing = await runGuide(guide);
      console.log(missing.length === 0 ? `${pageOf(guide)}: its code ran` : `${pageOf(guide)}: skipped, set ${missing.join(" and ")} to run it`);
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
