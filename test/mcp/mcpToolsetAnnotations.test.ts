// What McpToolset keeps of a server's tool annotations and does with them, on the reference
// servers: server-memory (whose writes race when two calls run at once), server-filesystem's
// destructive tools under a confirmation strategy, and server-everything's task-only tool.
import * as fs from "node:fs";
import * as path from "node:path";
import { Agent, BlockingConfirmationStrategy, ChatMessage, type ConfirmationRequest, Tool } from "toolwright";
import { type McpConfirm, type McpToolsetOptions, type McpWarning, mcpToolDetails } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { readAnnotations, readTitle } from "../../src/mcp/mcpToolDetails";
import { referenceServers } from "../helpers/mcpProcesses";
import { useMcpCleanup } from "../helpers/mcpCleanup";

const { connect, tempDir } = useMcpCleanup("toolwright-mcp-annotations-");

const script = (...calls: Array<[string, Record<string, unknown>]>) =>
  new ScriptedChatGenerator([toolCallReply(...calls.map(([name, args], i): [string, Record<string, unknown>, string] => [name, args, `c${i + 1}`])), ChatMessage.fromAssistant("done")]);

describe("McpToolset's sequential option on server-memory", () => {
  const entities = ["ada", "grace", "edsger", "barbara", "donald", "tony"];

  /** One run in which the model creates six entities with six calls of one step; the names the memory file keeps. */
  async function createInOneStep(options: McpToolsetOptions): Promise<string[]> {
    const file = path.join(tempDir(), "memory.jsonl");
    const memory = await connect({ command: process.execPath, args: [referenceServers.memory], env: { MEMORY_FILE_PATH: file }, stderr: "ignore" }, { include: ["create_entities"], ...options });
    const calls = entities.map((name): [string, Record<string, unknown>] => ["create_entities", { entities: [{ name, entityType: "person", observations: [] }] }]);
    await new Agent({ chatGenerator: script(...calls), tools: [memory], toolConcurrency: 6 }).run({ messages: [ChatMessage.fromUser("remember them")] });
    await memory.close();
    return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { name: string }).name);
  }

  it("loses entities when the Agent runs the server's calls at once (each call reads the file, adds its entity and writes it back)", async () => {
    const kept: number[] = [];
    for (let run = 0; run < 5; run++) kept.push((await createInOneStep({})).length);

    // Measured here: 1 of the 6 entities kept in each of 5 runs; with two calls, one entity lost in 8 of 10 runs.
    expect(kept.some((count) => count < entities.length)).toBe(true);
  });

  it("keeps every entity with sequential: true, the calls running one at a time in the model's order", async () => {
    for (let run = 0; run < 5; run++) expect(await createInOneStep({ sequential: true })).toEqual(entities);
  });
});

describe("McpToolset.confirmationPolicy on server-filesystem", () => {
  async function askedAbout(confirm: McpConfirm | undefined): Promise<{ asked: string[]; written: boolean }> {
    const dir = tempDir();
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, dir], stderr: "ignore" }, { prefix: "fs_", include: ["write_file", "create_directory", "read_text_file"], ...(confirm && { confirm }) });
    const note = new Tool({ name: "note", description: "Takes a note.", parameters: z.object({ text: z.string() }), function: ({ text }) => `noted ${text}` });
    const asked: string[] = [];
    const ask = (request: ConfirmationRequest) => (asked.push(request.toolName), { action: "reject" as const, feedback: "not now" });
    fs.writeFileSync(path.join(dir, "a.txt"), "a");
    const agent = new Agent({
      chatGenerator: script(["fs_write_file", { path: path.join(dir, "b.txt"), content: "b" }], ["fs_create_directory", { path: path.join(dir, "sub") }], ["fs_read_text_file", { path: path.join(dir, "a.txt") }], ["note", { text: "x" }]),
      tools: [files, note],
      confirmationStrategies: { "*": new BlockingConfirmationStrategy({ ask, policy: files.confirmationPolicy }) },
    });
    await agent.run({ messages: [ChatMessage.fromUser("go")] });
    return { asked, written: fs.existsSync(path.join(dir, "b.txt")) };
  }

  it("asks about destructive tools only by default (write_file), and a rejected call does not run", async () => {
    expect(await askedAbout(undefined)).toEqual({ asked: ["fs_write_file"], written: false });
  });

  it("asks about every tool that is not read-only with confirm: \"writes\", and about all of the server's with \"all\", never about other tools", async () => {
    expect((await askedAbout("writes")).asked).toEqual(["fs_write_file", "fs_create_directory"]);
    expect((await askedAbout("all")).asked).toEqual(["fs_write_file", "fs_create_directory", "fs_read_text_file"]);
  });
});

describe("mcpToolDetails", () => {
  it("gives the server's name, title, annotations and task support of each tool, and nothing for other tools", async () => {
    const files = await connect({ command: process.execPath, args: [referenceServers.filesystem, tempDir()], stderr: "ignore" }, { prefix: "fs_", include: ["write_file", "read_text_file"] });

    expect(files.tools.map((tool) => [tool.name, mcpToolDetails(tool)])).toEqual([
      ["fs_read_text_file", { serverToolName: "read_text_file", title: "Read Text File", annotations: { readOnlyHint: true, openWorldHint: false }, taskSupport: "forbidden" }],
      ["fs_write_file", { serverToolName: "write_file", title: "Write File", annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false }, taskSupport: "forbidden" }],
    ]);
    expect(files.tools.map((tool) => [tool.title, tool.annotations])).toEqual([
      ["Read Text File", { readOnlyHint: true, openWorldHint: false }],
      ["Write File", { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false }],
    ]);
    expect(mcpToolDetails(new Tool({ name: "x", description: "", parameters: z.object({}), function: () => 1 }))).toBeUndefined();
  });

  it("keeps only boolean hints, takes read-only and destructive together as destructive, and finds an older server's annotations.title", () => {
    expect(readAnnotations({ readOnlyHint: true, destructiveHint: true, idempotentHint: "yes", openWorldHint: false, extra: 1 })).toEqual({ destructiveHint: true, openWorldHint: false });
    expect(readAnnotations("hostile")).toEqual({});
    expect(readTitle({ annotations: { title: "Old Title" } })).toBe("Old Title");
    expect(readTitle({ title: "New", annotations: { title: "Old" } })).toBe("New");
    expect(readTitle({ annotations: { title: 7 } })).toBeUndefined();
  });
});

describe("McpToolset and tools that run only as tasks", () => {
  it("does not offer server-everything's simulate-research-query (taskSupport: required) to the model, and says so once", async () => {
    const warnings: McpWarning[] = [];
    const everything = await connect({ command: process.execPath, args: [referenceServers.everything, "stdio"], stderr: "ignore" }, { onWarning: (warning) => void warnings.push(warning) });

    await everything.refresh();
    await everything.refresh();

    expect(everything.tools.map((tool) => tool.name)).not.toContain("simulate-research-query");
    expect(everything.tools.map((tool) => tool.name)).toContain("trigger-long-running-operation");
    expect(warnings).toEqual([
      {
        code: "taskRequired",
        tool: "simulate-research-query",
        message: "McpToolset 'mcp-servers/everything': the server's tool 'simulate-research-query' runs only as an MCP task, which toolwright does not run; it is not offered to the model.",
      },
    ]);
  });
});
