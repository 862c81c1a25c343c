// npm run test:docs: every ```ts and ```tsx block of README.md and docs/*.md, type-checked against
// the BUILT package the way an app imports it (`toolwright`, `toolwright/openai`, … through the
// package's "exports", which TypeScript follows for a package's own name).
//
// A block may start with a hidden preamble: an HTML comment right above its fence,
//
//   <!-- preamble
//   import { Agent } from "toolwright";
//   declare const agent: Agent;
//   -->
//
// whose lines are compiled before the block (what the block leaves to the reader). In a preamble,
// `// @file name.ts` starts a file beside the block (the block can import it as `./name`); lines
// after it belong to that file. Each block is its own module, so blocks do not see each other.
//
// Usage: node .ci/checkDocBlocks.mjs [--out dir] [file.md …]  (default: README.md docs/*.md)
// A failure prints `file:line: TSnnnn: message` with the line in the Markdown file, and exits 1.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** The ```ts / ```tsx blocks of a Markdown file, each with its preamble and line numbers. */
export function extractBlocks(markdown, file) {
  const lines = markdown.split("\n");
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,})(\S*)\s*$/.exec(lines[index]);
    if (!open) continue;
    const [, indent, ticks, language] = open;
    // A fence closes with as many backticks as it opened with: a ````md block may show a ```ts one.
    let end = index + 1;
    while (end < lines.length && lines[end].trim() !== ticks) end++;
    if (language === "ts" || language === "tsx") {
      const body = lines.slice(index + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
      blocks.push({ file, language, fenceLine: index + 1, body, preamble: preambleAbove(lines, index) });
    }
    index = end;
  }
  return blocks;
}

/** The `<!-- preamble … -->` comment that ends on the line above a fence: its lines and first line number. */
function preambleAbove(lines, fenceIndex) {
  const close = fenceIndex - 1;
  if (close < 0 || lines[close].trim() !== "-->") return { startLine: 0, lines: [] };
  let start = close - 1;
  while (start >= 0 && lines[start].trim() !== "<!-- preamble") start--;
  if (start < 0) return { startLine: 0, lines: [] };
  return { startLine: start + 2, lines: lines.slice(start + 1, close).map((line) => line.trimStart()) };
}

/** Writes a block (and the files its preamble declares) under `dir`; returns how its lines map back. */
function writeBlock(block, dir) {
  mkdirSync(dir, { recursive: true });
  const main = [];
  const origins = [];
  const files = new Map();
  let current = null;
  block.preamble.lines.forEach((line, offset) => {
    const file = /^\/\/ @file (\S+)$/.exec(line);
    if (file) {
      current = file[1];
      files.set(current, []);
    } else if (current) files.get(current).push(line);
    else {
      main.push(line);
      origins.push(block.preamble.startLine + offset);
    }
  });
  block.body.forEach((line, offset) => {
    main.push(line);
    origins.push(block.fenceLine + 1 + offset);
  });
  main.push("export {};");
  for (const [name, lines] of files) writeFileSync(join(dir, name), `${lines.join("\n")}\nexport {};\n`);
  const path = join(dir, `block.${block.language}`);
  writeFileSync(path, `${main.join("\n")}\n`);
  return { path, origins };
}

const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
};

/** Type-checks every block of the given Markdown files; returns one line per error. */
export function checkDocBlocks(markdownFiles, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const written = [];
  for (const file of markdownFiles) {
    const relativeFile = relative(root, resolve(file));
    for (const block of extractBlocks(readFileSync(file, "utf8"), relativeFile)) {
      const dir = join(outDir, `${relativeFile.replace(/[^A-Za-z0-9]+/g, "_")}_L${block.fenceLine}`);
      written.push({ block, ...writeBlock(block, dir) });
    }
  }
  const program = ts.createProgram(written.map((entry) => entry.path), compilerOptions);
  const errors = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").replace(/\n\s*/g, " ");
    const entry = diagnostic.file && written.find((candidate) => resolve(candidate.path) === resolve(diagnostic.file.fileName));
    if (!entry) {
      const where = diagnostic.file ? `${relative(root, diagnostic.file.fileName)}: ` : "";
      errors.push(`${where}TS${diagnostic.code}: ${message}`);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    errors.push(`${entry.block.file}:${entry.origins[line] ?? entry.block.fenceLine}: TS${diagnostic.code}: ${message} (block at line ${entry.block.fenceLine})`);
  }
  return { blocks: written.length, errors };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  let outDir = join(root, "dist", "doc-blocks");
  const outFlag = args.indexOf("--out");
  if (outFlag !== -1) {
    outDir = resolve(args[outFlag + 1]);
    args.splice(outFlag, 2);
  }
  const files = args.length > 0 ? args : [join(root, "README.md"), ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => join(root, "docs", name))];
  const { blocks, errors } = checkDocBlocks(files, outDir);
  for (const error of errors) console.log(error);
  if (errors.length > 0) {
    console.log(`${errors.length} type error(s) in the TypeScript blocks of the docs.`);
    process.exit(1);
  }
  console.log(`${blocks} TypeScript blocks type-check against the built package.`);
}
