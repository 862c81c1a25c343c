import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository root (this file runs from dist/bench/codegen/ or, under ts-node, bench/codegen/). */
export const repoRoot = findRepoRoot(__dirname);

/**
 * Where the corpus imports `toolwright` from: the built declaration files, as an installed package
 * would be seen. Pointing `paths` at `src/index.ts` instead would put toolwright's own ~60 source
 * files (and what they import) into every tool's program, so each tool would parse, bind and, for
 * the three that type-check everything, check toolwright's implementation too — a cost no user pays
 * once toolwright comes from node_modules as `.d.ts`. With the `.d.ts`, all four tools load exactly
 * the same program: the corpus files, toolwright's declarations, the zod/ajv declarations they
 * import, and the ES2022 lib (`skipLibCheck` keeps every `.d.ts` unchecked, for everyone).
 */
export const toolwrightTypes = path.join(repoRoot, "dist", "src", "index.d.ts");

/** A generated corpus on disk. */
export interface Corpus {
  /** The corpus root: tsconfig.json, src/, and the tools' outputs. */
  readonly dir: string;
  readonly tsconfig: string;
  /** The tool files (absolute), one class of 10 `@tool` methods each. */
  readonly toolFiles: readonly string[];
  /** The file of shared types every tool file imports. */
  readonly sharedTypesFile: string;
  readonly toolCount: number;
  /** Names of the exported per-tool parameter interfaces (what the two schema generators are asked for). */
  readonly parameterInterfaces: readonly string[];
  remove(): void;
}

/** Tools per file: one class with this many `@tool` methods. */
export const toolsPerFile = 10;

/**
 * Writes a corpus of `files` × 10 `@tool` methods into a new temp directory. The parameter mix
 * covers the types codegen maps (README "Type mapping"): defaults before an injected `State`, a
 * string-literal alias, string and numeric enums, `string[]` and `Array<number>`, an imported
 * nested interface with `@pattern`/`@minimum`/`@maximum`, `Record<string, number>`, `Date` and an
 * optional `Date`, `string | null`, the generics `Filter<string>` and `Page<Address>`, a file-local
 * alias and interface, an inline object literal, an inline `'fast' | 'slow' = 'fast'`; JSDoc
 * `@param` on every method. Next to each class, every tool's parameters are also declared as an
 * exported interface (`P_Tools003_search`, the State parameter left out, the `@param` text and
 * defaults as property JSDoc): that is the input of the two schema generators, which cannot read
 * method signatures.
 */
export function writeCorpus(files: number, label = `${files * toolsPerFile}`): Corpus {
  if (!fs.existsSync(toolwrightTypes)) throw new Error(`${toolwrightTypes} is missing: run \`npm run build\` first (the corpus imports toolwright's declarations).`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toolwright-codegen-bench-${label}-`));
  const src = path.join(dir, "src");
  fs.mkdirSync(path.join(src, "tools"), { recursive: true });
  const tsconfig = path.join(dir, "tsconfig.json");
  fs.writeFileSync(tsconfig, `${JSON.stringify(corpusTsconfig(), null, 2)}\n`);
  const sharedTypesFile = path.join(src, "shared", "types.ts");
  fs.mkdirSync(path.dirname(sharedTypesFile));
  fs.writeFileSync(sharedTypesFile, sharedTypes);
  const toolFiles: string[] = [];
  const parameterInterfaces: string[] = [];
  for (let f = 0; f < files; f++) {
    const file = path.join(src, "tools", `tools${pad(f)}.ts`);
    const { text, interfaces } = toolFile(f);
    fs.writeFileSync(file, text);
    toolFiles.push(file);
    parameterInterfaces.push(...interfaces);
  }
  return {
    dir,
    tsconfig,
    toolFiles,
    sharedTypesFile,
    toolCount: files * toolsPerFile,
    parameterInterfaces,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function corpusTsconfig(): object {
  return {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2022"],
      module: "commonjs",
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      noEmit: true,
      // No @types packages: the corpus needs none, and none are visible from the temp dir anyway.
      types: [],
      paths: { toolwright: [toolwrightTypes] },
    },
    include: ["src/**/*.ts"],
  };
}

const sharedTypes = `/** How urgent a ticket is. */
export type Priority = "low" | "medium" | "high";

/** A ticket's status. */
export enum Status {
  Open = "open",
  Pending = "pending",
  Closed = "closed",
}

/** Escalation level. */
export enum Level {
  First,
  Second,
  Third,
}

/** A point on the map. */
export interface GeoPoint {
  /**
   * Latitude in degrees.
   * @minimum -90
   * @maximum 90
   */
  lat: number;
  /**
   * Longitude in degrees.
   * @minimum -180
   * @maximum 180
   */
  lng: number;
}

/** A postal address. */
export interface Address {
  /** Street and house number. */
  street: string;
  /**
   * Five-digit postal code.
   * @pattern ^[0-9]{5}$
   */
  zip: string;
  /** Where it is. */
  location: GeoPoint;
  /** Apartment, floor, etc. */
  extra?: string;
}

/** A field filter. */
export interface Filter<T> {
  /** The field to compare. */
  field: string;
  /** The value it must equal. */
  equals: T;
  /** Invert the match. */
  negate?: boolean;
}

/** One page of results. */
export interface Page<T> {
  /** The items on this page. */
  items: T[];
  /**
   * Page size.
   * @minimum 1
   * @maximum 100
   */
  size: number;
  /** Where the next page starts. */
  cursor?: string;
}
`;

interface Param {
  readonly name: string;
  /** The annotation; undefined for the injected State. */
  readonly type: string;
  readonly doc?: string;
  readonly init?: string;
  readonly optional?: boolean;
  readonly state?: true;
}

interface Template {
  readonly verb: string;
  readonly summary: string;
  readonly params: readonly Param[];
  readonly returns: string;
}

// Ten method shapes; file f's method k uses template k, so every file has the whole mix.
const templates: readonly Template[] = [
  {
    verb: "search",
    summary: "Search the knowledge base for articles.",
    params: [
      { name: "query", type: "string", doc: "the text to look for" },
      { name: "limit", type: "number", init: "10", doc: "max hits" },
      { name: "state", type: "State", state: true },
    ],
    returns: "string[] { return [query, String(limit), String(state !== undefined)]; }",
  },
  {
    verb: "prioritise",
    summary: "Set a ticket's priority and status.",
    params: [
      { name: "ticketId", type: "string", doc: "the ticket, e.g. T-12" },
      { name: "priority", type: "Priority", doc: "how urgent it is" },
      { name: "status", type: "Status", doc: "the new status" },
    ],
    returns: "string { return `${ticketId}:${priority}:${status}`; }",
  },
  {
    verb: "escalate",
    summary: "Escalate tickets to a support level.",
    params: [
      { name: "level", type: "Level", doc: "the level to escalate to" },
      { name: "tags", type: "string[]", doc: "labels to add" },
      { name: "scores", type: "Array<number>", doc: "the customer's satisfaction scores" },
    ],
    returns: "number { return level + tags.length + scores.length; }",
  },
  {
    verb: "ship",
    summary: "Ship a parcel to an address.",
    params: [
      { name: "address", type: "Address", doc: "where to deliver" },
      { name: "weights", type: "Record<string, number>", doc: "weight in kg per item" },
    ],
    returns: "string { return address.zip + Object.keys(weights).length; }",
  },
  {
    verb: "schedule",
    summary: "Schedule a callback.",
    params: [
      { name: "from", type: "Date", doc: "earliest time" },
      { name: "note", type: "string | null", doc: "a note for the agent, or null" },
      { name: "until", type: "Date", optional: true, doc: "latest time (default: open-ended)" },
    ],
    returns: "string { return `${from.toISOString()} ${note ?? ''} ${until?.toISOString() ?? ''}`; }",
  },
  {
    verb: "list",
    summary: "List addresses that match a filter, one page at a time.",
    params: [
      { name: "filter", type: "Filter<string>", doc: "which addresses" },
      { name: "page", type: "Page<Address>", doc: "the page the caller has so far" },
    ],
    returns: "number { return filter.field.length + page.items.length; }",
  },
  {
    verb: "configure",
    summary: "Configure the local rules.",
    params: [
      { name: "mode", type: "LocalMode", doc: "how strictly to apply them" },
      { name: "options", type: "LocalOptions", doc: "the rule options" },
    ],
    returns: "string { return mode + options.threshold; }",
  },
  {
    verb: "measure",
    summary: "Measure response times in a range.",
    params: [
      { name: "range", type: "{ from: number; to: number; unit?: string }", doc: "the range to measure" },
      { name: "speed", type: "'fast' | 'slow'", init: "'fast'", doc: "how thorough" },
    ],
    returns: "number { return range.to - range.from + speed.length; }",
  },
  {
    verb: "tag",
    summary: "Tag a customer with a priority.",
    params: [
      { name: "customerId", type: "string", doc: "the customer" },
      { name: "priority", type: "Priority", init: '"medium"', doc: "how important" },
      { name: "state", type: "State", state: true },
    ],
    returns: "string { return customerId + priority + String(state !== undefined); }",
  },
  {
    verb: "summarise",
    summary: "Summarise a conversation.",
    params: [
      { name: "text", type: "string", doc: "the conversation" },
      { name: "maxWords", type: "Integer", init: "50", doc: "length limit in words" },
      { name: "style", type: "'bullets' | 'prose'", optional: true, doc: "output style" },
    ],
    returns: "string { return text.slice(0, maxWords) + (style ?? ''); }",
  },
];

function toolFile(f: number): { text: string; interfaces: string[] } {
  const className = `Tools${pad(f)}`;
  const lines: string[] = [
    `import { tool, type State, type Integer } from "toolwright";`,
    `import { type Address, type Filter, Level, type Page, type Priority, Status } from "../shared/types";`,
    ``,
    `/** How strictly local rules apply (file-local alias). */`,
    `type LocalMode = "off" | "warn" | "enforce";`,
    ``,
    `/** Options of the local rules (file-local interface). */`,
    `interface LocalOptions {`,
    `  /**`,
    `   * Score above which a rule fires.`,
    `   * @minimum 0`,
    `   * @maximum 1`,
    `   */`,
    `  threshold: number;`,
    `  /** Rules to skip. */`,
    `  skip?: string[];`,
    `}`,
    ``,
    `/** Tools of group ${f}. */`,
    `export class ${className} {`,
  ];
  const interfaces: string[] = [];
  const paramInterfaces: string[] = [];
  templates.forEach((t, k) => {
    const method = `${t.verb}${pad(f)}`;
    lines.push(`  /**`, `   * ${t.summary}`);
    for (const p of t.params) if (!p.state) lines.push(`   * @param ${p.name} ${p.doc}`);
    lines.push(`   */`);
    lines.push(k % 2 === 0 ? `  @tool()` : `  @tool({ description: ${JSON.stringify(`${t.summary} (group ${f})`)} })`);
    const signature = t.params.map((p) => `${p.name}${p.optional ? "?" : ""}: ${p.type}${p.init !== undefined ? ` = ${p.init}` : ""}`).join(", ");
    lines.push(`  ${method}(${signature}): ${t.returns}`, ``);
    // The same parameters as an interface, for the schema generators.
    const name = `P_${className}_${method}`;
    interfaces.push(name);
    paramInterfaces.push(`/** ${t.summary} */`, `export interface ${name} {`);
    for (const p of t.params) {
      if (p.state) continue;
      paramInterfaces.push(`  /**`, `   * ${p.doc}`);
      if (p.init !== undefined) paramInterfaces.push(`   * @default ${p.init.replace(/^'(.*)'$/, '"$1"')}`);
      paramInterfaces.push(`   */`, `  ${p.name}${p.optional || p.init !== undefined ? "?" : ""}: ${p.type};`);
    }
    paramInterfaces.push(`}`, ``);
  });
  lines[lines.length - 1] = `}`;
  lines.push(``, `// The parameters of each tool above, as interfaces (input of typescript-json-schema / ts-json-schema-generator).`, ``, ...paramInterfaces);
  return { text: lines.join("\n"), interfaces };
}

function pad(n: number): string {
  return String(n).padStart(3, "0");
}

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "toolwright") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no toolwright package.json above ${start}`);
  }
}
