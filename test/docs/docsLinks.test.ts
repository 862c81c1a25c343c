import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(__dirname, "../..");
const guides = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** The headings of a Markdown file, outside code fences. */
function headings(file: string): string[] {
  let fenced = false;
  const found: string[] = [];
  for (const line of readFileSync(join(root, file), "utf8").split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) found.push(line.replace(/^#+ /, "").trim());
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

/** The link targets of a Markdown file, outside code fences and inline code. */
function links(file: string): Array<{ line: number; target: string }> {
  let fenced = false;
  const found: Array<{ line: number; target: string }> = [];
  readFileSync(join(root, file), "utf8").split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const match of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) found.push({ line: index + 1, target: match[1] });
  });
  return found;
}

describe("docs/", () => {
  it("holds every heading the README had before it was split into guides", () => {
    const former = readFileSync(join(__dirname, "formerReadmeHeadings.txt"), "utf8").split("\n").filter((line) => line !== "");
    const present = new Set(guides.flatMap(headings));
    expect(former.filter((heading) => !present.has(heading))).toEqual([]);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of guides) {
      for (const { line, target } of links(file)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, hash] = target.split("#");
        const targetFile = path === "" ? join(root, file) : resolve(dirname(join(root, file)), path);
        if (!existsSync(targetFile)) broken.push(`${file}:${line}: ${target} (no such file)`);
        else if (hash !== undefined && !headings(relative(root, targetFile)).map(anchor).includes(hash)) broken.push(`${file}:${line}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
