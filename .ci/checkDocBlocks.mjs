// npm run test:docs: every ```ts and ```tsx block of README.md and docs/*.md comes from a file under
// examples/ that runs, and that file type-checks against the BUILT package the way an app imports it
// (`toolwright`, `toolwright/openai`, … through the package's "exports", which TypeScript follows
// for a package's own name).
//
// A block names where it comes from in an HTML comment right above its fence,
//
//   <!-- example: examples/docs/state/main.ts#schema -->
//
// and its lines must equal that region of the file: the lines between `// #region schema` and
// `// #endregion`, without the region's common indentation (regions may nest; their marker lines are
// never shown). A block may join regions, `#imports+schema`, with an empty line between them: an
// example keeps its imports at the top of the file and its code inside the function that runs it
// (a CommonJS module has no top-level await). `npm run docs:sync` (this script with --write) copies every region into its block.
// The example files run in `npm test` (test/docs/guideExamples.test.ts), so a guide's code both
// compiles and works.
//
// Why not embedme, markdown-magic or remark-code-import (the npm tools for this): they cite line
// ranges (`file.ts#L10-L20`), which silently point at other lines when an example changes; a named
// region keeps the link by name, and a block that no longer matches fails here.
//
// Usage: node .ci/checkDocBlocks.mjs [--write] [--examples dir/] [file.md …]  (default: README.md docs/*.md;
// --examples is where blocks may come from, examples/ unless a test says otherwise)
// A failure prints `file:line: message` (the Markdown line, or the example's line:col), and exits 1.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const markerPattern = /^\s*<!-- example: (\S+?)#([\w-]+(?:\+[\w-]+)*) -->\s*$/;

/** The ```ts / ```tsx blocks of a Markdown file, each with the example region it names (if any). */
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
      const marker = index > 0 ? markerPattern.exec(lines[index - 1]) : null;
      blocks.push({ file, language, indent, fenceLine: index + 1, bodyStart: index + 1, bodyEnd: end, body, source: marker ? { path: marker[1], region: marker[2] } : null });
    }
    index = end;
  }
  return blocks;
}

/** The named regions of a source file: name → { lines (dedented), numbers (each line's 1-based number in the file) }. */
export function extractRegions(text) {
  const regions = new Map();
  const open = [];
  text.split("\n").forEach((line, index) => {
    const start = /^\s*\/\/ #region ([\w-]+)\s*$/.exec(line);
    if (start) {
      open.push({ name: start[1], lines: [] });
      return;
    }
    if (/^\s*\/\/ #endregion\b/.test(line)) {
      const region = open.pop();
      if (region) regions.set(region.name, { lines: dedent(region.lines.map((entry) => entry.text)), numbers: region.lines.map((entry) => entry.number) });
      return;
    }
    for (const region of open) region.lines.push({ text: line, number: index + 1 });
  });
  return regions;
}

function dedent(lines) {
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^\s*/.exec(line)[0].length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(common).trimEnd());
}

/** Where a block's lines should come from: its region's lines, or a one-line problem. */
function regionOf(block, examplesDir) {
  if (!block.source) {
    return { problem: "this TypeScript block does not come from an example: put its code in a `// #region <name>` of a file under examples/ that runs, and mark the block with `<!-- example: examples/<file>#<name> -->` on the line above the fence." };
  }
  const { path, region } = block.source;
  if (!path.startsWith(examplesDir) || path.includes("..")) return { problem: `the block's example '${path}' is not a file under ${examplesDir}; name a path from the repository root, like examples/docs/state/main.ts.` };
  const absolute = join(root, path);
  if (!existsSync(absolute)) return { problem: `the block's example '${path}' does not exist; create it or fix the path.` };
  const regions = extractRegions(readFileSync(absolute, "utf8"));
  const lines = [];
  for (const name of region.split("+")) {
    const found = regions.get(name);
    if (!found) return { problem: `'${path}' has no region '${name}' (it has: ${[...regions.keys()].join(", ") || "none"}); add \`// #region ${name}\` … \`// #endregion\` around the code.` };
    if (lines.length > 0) lines.push({ text: "", line: found.numbers[0] ?? 0 });
    found.lines.forEach((text, offset) => lines.push({ text, line: found.numbers[offset] }));
  }
  return { path, absolute, lines: lines.map((entry) => entry.text), exampleLines: lines.map((entry) => entry.line) };
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

/**
 * Checks (or with `write`, rewrites) every block of the given Markdown files against its example
 * region, then type-checks the example files against the built package; returns one line per problem.
 */
export function checkDocBlocks(markdownFiles, { write = false, examplesDir = "examples/" } = {}) {
  const errors = [];
  const examples = new Set();
  let blockCount = 0;
  for (const file of markdownFiles) {
    const relativeFile = relative(root, resolve(file));
    const markdown = readFileSync(file, "utf8");
    const lines = markdown.split("\n");
    const blocks = extractBlocks(markdown, relativeFile);
    blockCount += blocks.length;
    // Bottom-up, so that rewriting a block does not move the ones above it.
    for (const block of [...blocks].reverse()) {
      const region = regionOf(block, examplesDir);
      if (region.problem) {
        errors.push(`${block.file}:${block.fenceLine}: ${region.problem}`);
        continue;
      }
      examples.add(region.absolute);
      if (write) {
        lines.splice(block.bodyStart, block.bodyEnd - block.bodyStart, ...region.lines.map((line) => (line === "" ? "" : block.indent + line)));
        continue;
      }
      const differs = firstDifference(block.body, region.lines);
      if (differs !== -1) {
        errors.push(
          `${block.file}:${block.fenceLine + 1 + Math.min(differs, block.body.length)}: the block differs from ${region.path}#${block.source.region} ` +
            `(line ${region.exampleLines[differs] ?? region.exampleLines.at(-1) ?? 0}): the example has ${quote(region.lines[differs])}, the block ${quote(block.body[differs])}; run \`npm run docs:sync\` to copy the example into the docs.`,
        );
      }
    }
    if (write) writeFileSync(file, lines.join("\n"));
  }
  errors.reverse();
  errors.push(...typeErrors([...examples]));
  return { blocks: blockCount, examples: examples.size, errors };
}

function firstDifference(actual, expected) {
  const length = Math.max(actual.length, expected.length);
  for (let index = 0; index < length; index++) if (actual[index]?.trimEnd() !== expected[index]) return index;
  return -1;
}

const quote = (line) => (line === undefined ? "no line" : `\`${line.trim()}\``);

/** Type errors in the example files (and the files they import) against the built package. */
function typeErrors(files) {
  if (files.length === 0) return [];
  const program = ts.createProgram(files, compilerOptions);
  const errors = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").replace(/\n\s*/g, " ");
    if (!diagnostic.file) {
      errors.push(`TS${diagnostic.code}: ${message}`);
      continue;
    }
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    errors.push(`${relative(root, diagnostic.file.fileName)}:${line + 1}:${character + 1}: TS${diagnostic.code}: ${message}`);
  }
  return errors;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  const write = args.includes("--write");
  const examplesFlag = args.indexOf("--examples");
  const examplesDir = examplesFlag === -1 ? "examples/" : args.splice(examplesFlag, 2)[1];
  const named = args.filter((arg) => arg !== "--write");
  const files = named.length > 0 ? named : [join(root, "README.md"), ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => join(root, "docs", name))];
  const { blocks, examples, errors } = checkDocBlocks(files, { write, examplesDir });
  for (const error of errors) console.log(error);
  if (errors.length > 0) {
    console.log(`${errors.length} problem(s) in the TypeScript blocks of the docs.`);
    process.exit(1);
  }
  console.log(`${blocks} TypeScript blocks ${write ? "copied from" : "match"} their regions in ${examples} example files, which type-check against the built package.`);
}
