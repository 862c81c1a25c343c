// Bundles the runtime (dist/src and dist/decorators, as tsc emitted them) into one file,
// dist/runtime.js, and writes the package's runtime entry points as small files that take their part
// of it: dist/toolwright.js ("toolwright"), dist/testing.js ("toolwright/testing"), dist/openai.js
// ("toolwright/openai"), dist/bullmq.js ("toolwright/bullmq"), dist/mcp.js ("toolwright/mcp"),
// dist/otel.js ("toolwright/otel"), dist/aisdk.js ("toolwright/ai-sdk"), dist/yaml.js ("toolwright/yaml"), dist/ui.js ("toolwright/ui") and dist/conversations.js ("toolwright/conversations"),
// and copies the agent definition format's JSON Schema to dist/agent-definition.schema.json
// ("toolwright/agent-definition.schema.json"). Run by `npm run build` after tsc.
//
// Why: loading 70 small modules costs a fresh process ~13 ms and ~6 MiB of peak RSS in Node's module
// loader (issue #11); one file costs ~7 ms and ~2 MiB. Why one bundle for all the entry points:
// ChatMessage, the error classes and the tool registry must be the same objects whichever entry point
// a user imports them from, so nothing may be bundled twice. esbuild wraps each CommonJS module in a
// function run on its first require, so importing "toolwright" still runs none of the OpenAI module.
// Packages stay outside the bundle (`packages: "external"`): the peer dependencies must be the app's
// own copies — @opentelemetry/api above all, which finds the app's registered provider through a
// global keyed by its version.
//
// ajv and ajv-formats go into a second file, dist/ajv.js (with src/tools/loadAjv, their only user),
// which the runtime requires on the first tool call it validates: as ~100 separate modules they cost
// a fresh process ~15 ms and ~6 MiB more than as one file. They are bundled, so they are
// devDependencies of the package; the versions shipped are the ones in package-lock.json. In that
// file the 2020-12 meta-schema's validator is ajv's standalone code, compiled here with the runtime's
// options, instead of being compiled at run time (~20 ms and ~6 MiB at the first call of a `new Tool`).
//
// re2js (RE2 in JavaScript: linear-time matching for the patterns of schemas from outside the code)
// goes into a third file, dist/re2.js (with src/tools/loadRe2), which is required only when such a
// schema with a pattern is compiled: most apps never load it. Bundled like ajv, so a devDependency.
//
// The entry files end with `0 && (module.exports = { ... })`, the form Node's CommonJS export lexer
// reads, so an ES module can `import { Agent } from "toolwright"` by name.
import { build } from "esbuild";
import { createRequire } from "node:module";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const dist = resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "dist");
const entries = { toolwright: "./src/index.js", testing: "./src/testing/index.js", openai: "./src/chat/openai/index.js", bullmq: "./src/bullmq/index.js", mcp: "./src/mcp/index.js", otel: "./src/otel/index.js", aisdk: "./src/aisdk/index.js", yaml: "./src/yaml/index.js", ui: "./src/ui/index.js", conversations: "./src/conversations/index.js" };

/** Makes the runtime bundle require dist/ajv.js where the source requires ./loadAjv. */
const ajvChunk = {
  name: "ajv-chunk",
  setup(build) {
    build.onResolve({ filter: /\/loadAjv$/ }, () => ({ path: "./ajv.js", external: true }));
  },
};

/** Makes the runtime and ajv bundles require dist/re2.js where the source requires ./loadRe2. */
const re2Chunk = {
  name: "re2-chunk",
  setup(build) {
    build.onResolve({ filter: /\/loadRe2$/ }, () => ({ path: "./re2.js", external: true }));
  },
};

/** Replaces src/tools/metaSchemaValidator with the meta-schema's validator compiled to code now. */
const precompiledMetaSchema = {
  name: "precompiled-meta-schema",
  setup(build) {
    build.onLoad({ filter: /[\\/]metaSchemaValidator\.js$/ }, ({ path }) => {
      const require = createRequire(path);
      const { default: Ajv } = require("ajv/dist/2020");
      const { default: standaloneCode } = require("ajv/dist/standalone");
      const { ajvOptions } = require("./loadAjv.js");
      const { metaSchemaId } = require(path);
      const ajv = new Ajv({ ...ajvOptions, code: { source: true } });
      const validate = ajv.getSchema(metaSchemaId);
      const standalone = standaloneCode(ajv, validate);
      // The module keeps its exports; the validator it returns is the code compiled above.
      const original = readFileSync(path, "utf8");
      const contents = `${original}\nconst precompiled = (() => { const module = { exports: {} }; const exports = module.exports; ${standalone}\n return module.exports; })();\nexports.metaSchemaValidator = () => precompiled;\n`;
      return { contents, loader: "js", resolveDir: dirname(path) };
    });
  },
};

await build({
  entryPoints: [join(dist, "src/tools/loadRe2.js")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  legalComments: "none",
  outfile: join(dist, "re2.js"),
  logLevel: "warning",
});

await build({
  plugins: [precompiledMetaSchema, re2Chunk],
  entryPoints: [join(dist, "src/tools/loadAjv.js")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  legalComments: "none",
  outfile: join(dist, "ajv.js"),
  logLevel: "warning",
});

await build({
  plugins: [ajvChunk, re2Chunk],
  stdin: {
    contents: Object.entries(entries).map(([name, path]) => `exports.${name} = () => require(${JSON.stringify(path)});`).join("\n"),
    resolveDir: dist,
    sourcefile: "runtime-entry.js",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  packages: "external",
  legalComments: "none",
  outfile: join(dist, "runtime.js"),
  logLevel: "warning",
});

const require = createRequire(join(dist, "runtime.js"));
for (const [name, path] of Object.entries(entries)) {
  const names = Object.keys(require(path)).filter((key) => key !== "__esModule");
  const invalid = names.filter((key) => !/^[A-Za-z_$][\w$]*$/.test(key));
  if (invalid.length > 0) throw new Error(`bundleRuntime: ${path} exports names that are not identifiers: ${invalid.join(", ")}`);
  writeFileSync(
    join(dist, `${name}.js`),
    [
      `"use strict";`,
      `// The "${name}" entry point: its part of runtime.js (see .ci/bundleRuntime.mjs).`,
      `module.exports = require("./runtime.js").${name}();`,
      `0 && (module.exports = { ${names.join(", ")} });`,
      ``,
    ].join("\n"),
  );
}

copyFileSync(join(dist, "..", "src/definition/agent-definition.schema.json"), join(dist, "agent-definition.schema.json"));
