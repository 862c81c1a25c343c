import { join } from "node:path";
import { ChatMessage, type ChatGeneratorRequest } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/** The result of a tool in the conversation, as the model read it. */
function resultOf(request: ChatGeneratorRequest, toolName: string): string {
  const message = request.messages.find((m) => m.toolCallResult?.origin.toolName === toolName);
  if (!message) throw new Error(`the conversation has no result of ${toolName}`);
  return message.toolCallResult!.result;
}

/** The folder the user's message names ("… in the folder /tmp/…"). */
function folderOf(request: ChatGeneratorRequest): string {
  const text = request.messages.find((m) => m.role === "user")?.text ?? "";
  return /folder (\S+)/.exec(text)?.[1] ?? "/";
}

/**
 * Stands in for a real model when no OPENAI_API_KEY / OPENAI_BASE_URL is set. Its tools come from
 * two MCP servers: the filesystem server's (fs_…) and the support desk's (desk_…). It looks at the
 * notes folder named in the user's message and the open tickets at once, reads the handover note,
 * closes the ticket the note asks to close, and answers.
 */
export function scriptedMcpModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    (request) =>
      ChatMessage.fromAssistant(undefined, {
        toolCalls: [
          { id: "call_ls", toolName: "fs_list_directory", arguments: { path: folderOf(request) } },
          { id: "call_search", toolName: "desk_search_tickets", arguments: { query: "open" } },
        ],
      }),
    (request) => {
      // The filesystem server answers { content: "[FILE] handover.md\n[FILE] …" } (its structuredContent).
      const listing = (JSON.parse(resultOf(request, "fs_list_directory")) as { content: string }).content;
      const note = /\[FILE\] (handover\S*)/.exec(listing)?.[1] ?? "handover.md";
      return ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_read", toolName: "fs_read_text_file", arguments: { path: join(folderOf(request), note) } }] });
    },
    (request) => {
      const note = (JSON.parse(resultOf(request, "fs_read_text_file")) as { content: string }).content;
      const topic = /close the (\w+) ticket/i.exec(note)?.[1] ?? "";
      const { tickets } = JSON.parse(resultOf(request, "desk_search_tickets")) as { tickets: Array<{ id: string; subject: string }> };
      const ticket = tickets.find((t) => t.subject.toLowerCase().includes(topic.toLowerCase()));
      if (!ticket) return ChatMessage.fromAssistant(`The handover note asks to close a "${topic}" ticket, but you have no such open ticket.`);
      return ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_close", toolName: "desk_close_ticket", arguments: { ticketId: ticket.id } }] });
    },
    (request) => {
      const closed = request.messages.at(-1)?.toolCallResult;
      if (!closed || closed.error) return ChatMessage.fromAssistant(`I could not close the ticket: ${closed?.result ?? "no result"}`);
      const ticket = JSON.parse(closed.result) as { id: string; subject: string };
      return ChatMessage.fromAssistant(`Done: following the handover note, I closed ${ticket.id} ("${ticket.subject}"). Your invoice ticket stays open.`);
    },
  ]);
}
