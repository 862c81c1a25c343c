import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { McpToolset, type McpServerSpec, type McpToolsetOptions } from "toolwright/mcp";

/**
 * What an MCP test opens, closed after each test (failed or not, newest first) so that jest
 * exits: `onClose` registers anything, `connect` a toolset, `tempDir` a folder removed afterwards.
 */
export function useMcpCleanup(prefix = "toolwright-mcp-") {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
  });
  const onClose = (close: () => Promise<void>): void => void closing.push(close);
  return {
    onClose,
    async connect(server: McpServerSpec, options?: McpToolsetOptions): Promise<McpToolset> {
      const toolset = await McpToolset.connect(server, options);
      onClose(() => toolset.close());
      return toolset;
    },
    tempDir(): string {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
      onClose(async () => fs.rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
