import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temporary folder with a colleague's notes, for the filesystem MCP server to serve; `remove()` deletes it. */
export async function createNotesFolder(): Promise<{ path: string; remove(): Promise<void> }> {
  // realpath: the filesystem server compares the real paths of what it is asked for with this one.
  const path = await realpath(await mkdtemp(join(tmpdir(), "toolwright-mcp-")));
  await writeFile(
    join(path, "handover.md"),
    "# Handover from Sam (customer c-42)\n\nI fixed their printer on site this morning. Please close the printer ticket.\nThe invoice one stays open: accounting is still on it.\n",
  );
  await writeFile(join(path, "visit-log.txt"), "09:10 on site\n09:40 replaced the fuser unit\n09:55 test page printed fine\n");
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
