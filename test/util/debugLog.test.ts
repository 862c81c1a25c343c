import { execFile } from "node:child_process";
import * as path from "node:path";
import { inspect } from "node:util";
import { escapeControls, inspectForLog } from "../../src/util/debugLog";

// The fixture runs on the built package (dist/), which `npm test` builds before jest runs.
const fixture = path.join(__dirname, "fixtures", "faultyTools.js");

/** Runs the fixture with NODE_DEBUG set to `debug` (or unset): its pid, what the model was sent, and its stderr. */
function runFixture(debug: string | undefined): Promise<{ pid: number; texts: string[]; stderr: string }> {
  const env = { ...process.env };
  delete env.NODE_DEBUG;
  if (debug !== undefined) env.NODE_DEBUG = debug;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [fixture], { encoding: "utf8", timeout: 30_000, env }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${fixture} failed: ${error.message}\n${stdout}\n${stderr}`));
      resolve({ pid: child.pid!, texts: JSON.parse(stdout) as string[], stderr });
    });
  });
}

// What the model is sent does not depend on the debug log. The unknown tool's error comes first
// among its step's tool messages, as in Haystack's _run_tool (it came after 'search' before #33).
const modelTexts = [
  "Tool 'search' failed: search for [customer_id] failed.",
  "Tool 'forge' failed: bad\nTOOLWRIGHT 1: forged\u001b[2J.",
  "Tool 'forge' not found. Available tools: search.",
  "Tool 'search' did not run: its parameter 'customerId' is filled from state key 'customer_id', which has no value; give 'customer_id' a value before the tool is called (a run input, or another tool's outputsToState).",
  "Tool 'forge' failed: bad\nTOOLWRIGHT 1: forged\u001b[2J.",
];

describe("debugLog", () => {
  it("prints each tool fault to stderr with NODE_DEBUG=toolwright: the original error unredacted, its stack and cause, one entry per fault", async () => {
    const { pid, texts, stderr } = await runFixture("toolwright");

    expect(texts).toEqual(modelTexts);
    const prefix = `TOOLWRIGHT ${pid}: `;
    const entries = stderr.split(new RegExp(`^(?=${prefix})`, "m")).filter((entry) => entry !== "");
    expect(entries.map((entry) => entry.split("\n", 1)[0])).toEqual([
      `${prefix}run "run-1", step 1, call "c1": Tool 'search' threw TypeError: search for cust-9931 failed.`,
      `${prefix}run "run-1", step 1, call "c2\\nTOOLWRIGHT 1: forged": Tool 'forge' threw Error: bad`,
      `${prefix}run "run-2", step 1, call "c1": Tool 'search' did not run: its parameter 'customerId' is filled from state key 'customer_id', which has no value; give 'customer_id' a value before the tool is called (a run input, or another tool's outputsToState).`,
      `${prefix}run "tool-runner", step 1, call "call-1": Tool 'forge' threw Error: bad`,
    ]);
    expect(entries[0]).toMatch(/\n {2}TypeError: search for cust-9931 failed\n {6}at .*searchIndex.* \(.*faultyTools\.js:\d+:\d+\)\n/);
    expect(entries[0]).toMatch(/\n {4}\[cause\]: TypeError: Cannot read properties of undefined \(reading 'hits'\)\n {8}at .*searchIndex.* \(.*faultyTools\.js:\d+:\d+\)\n/);
    // The injected value's entry has no stack: nothing threw.
    expect(entries[2]!.trimEnd().split("\n")).toHaveLength(1);
  });

  it("indents an entry's later lines and escapes control characters, so an error's text cannot forge an entry or drive the terminal", async () => {
    const { pid, stderr } = await runFixture("toolwright");

    const lines = stderr.trimEnd().split("\n");
    expect(lines.filter((line) => !line.startsWith(" ")).every((line) => line.startsWith(`TOOLWRIGHT ${pid}: run `))).toBe(true);
    expect(lines).toContain("  TOOLWRIGHT 1: forged\\u001b[2J");
    expect(stderr).not.toContain("\u001b");
  });

  it("prints nothing without NODE_DEBUG, or with only the MCP section", async () => {
    for (const debug of [undefined, "toolwright-mcp"]) {
      const { texts, stderr } = await runFixture(debug);

      expect(texts).toEqual(modelTexts);
      expect(stderr).toBe("");
    }
  });
});

describe("inspectForLog", () => {
  it("shows an error as util.inspect does", () => {
    const error = Object.assign(new Error("no such file"), { code: "ENOENT" });

    expect(inspectForLog(error)).toBe(inspect(error, { depth: 4, colors: false }));
  });

  it("cuts an entry longer than 32,768 characters and says how long it was", () => {
    const error = new Error("x".repeat(40_000));
    const whole = inspect(error, { depth: 4, colors: false });

    const text = inspectForLog(error);

    expect(text === `${whole.slice(0, 32_768)}…(${whole.length} characters)`).toBe(true);
  });

  it("falls back to the value's string form when its custom inspection throws", () => {
    const hostile = {
      [inspect.custom]() {
        throw new Error("no");
      },
      toString: () => "hostile value",
    };

    expect(inspectForLog(hostile)).toBe("hostile value");
  });
});

describe("escapeControls", () => {
  it("escapes control characters and line separators but keeps newlines and tabs", () => {
    expect(escapeControls("a\tb\nc\u001b[2J\u0000\u0085\u2028")).toBe("a\tb\nc\\u001b[2J\\u0000\\u0085\\u2028");
  });
});
