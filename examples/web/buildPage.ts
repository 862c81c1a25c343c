import { copyFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

/** The page's sources, examples/web/client, found from wherever this file runs (src or dist). */
export function pageSourceDir(from: string = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "examples", "web", "client");
    if (existsSync(join(candidate, "main.tsx"))) return candidate;
  }
  throw new Error(`The chat page's sources (examples/web/client/main.tsx) are not above ${from}; run the example from the toolwright repository.`);
}

/**
 * Bundles the chat page (React, @ai-sdk/react and ai, from node_modules: no CDN) into
 * `outDir/app.js` beside a copy of its index.html, and returns the bundle's size in bytes.
 */
export async function buildPage(outDir: string): Promise<number> {
  const source = pageSourceDir();
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(source, "main.tsx")],
    outfile: join(outDir, "app.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
    metafile: true,
  });
  await copyFile(join(source, "index.html"), join(outDir, "index.html"));
  return Object.values(result.metafile.outputs).reduce((total, output) => total + output.bytes, 0);
}
