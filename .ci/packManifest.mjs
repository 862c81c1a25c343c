// The package.json that `npm pack` puts in the tarball: without `scripts` and `devDependencies`.
// A user's install would run (and npm 11 warns about) `prepare`, which builds from source and is only
// for a git dependency; the tarball already holds the build. npm reads the file for the tarball after
// `prepack` and runs `postpack` from the manifest it read before, so:
//   prepack:  node .ci/packManifest.mjs strip     (package.json → package.json.unpacked, then the stripped one)
//   postpack: node .ci/packManifest.mjs restore   (package.json.unpacked → package.json)
// A pack that failed between the two leaves package.json.unpacked; `strip` then restores it first
// rather than stripping the stripped file and losing the scripts.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = path.join(root, "package.json");
const saved = path.join(root, "package.json.unpacked");
const removed = ["scripts", "devDependencies"];

const command = process.argv[2];
if (command === "strip") {
  if (fs.existsSync(saved)) fs.renameSync(saved, manifest);
  const text = fs.readFileSync(manifest, "utf8");
  const packed = JSON.parse(text);
  for (const key of removed) delete packed[key];
  fs.writeFileSync(saved, text);
  fs.writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (command === "restore") {
  if (!fs.existsSync(saved)) {
    console.error("packManifest: package.json.unpacked is missing, so package.json was not stripped; nothing to restore.");
    process.exit(1);
  }
  fs.renameSync(saved, manifest);
} else {
  console.error(`packManifest: usage: node .ci/packManifest.mjs strip|restore, not '${command ?? ""}'.`);
  process.exit(2);
}
