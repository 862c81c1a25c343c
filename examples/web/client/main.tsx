import type { UIMessage } from "ai";
import { createRoot } from "react-dom/client";
import { ChatApp } from "./ChatApp";

// The chat's id lives in the address, so a reload finds the same chat (and the reply still streaming).
function chatIdFromAddress(): string {
  const url = new URL(location.href);
  const existing = url.searchParams.get("chat");
  if (existing && /^[\w-]{1,64}$/.test(existing)) return existing;
  const id = crypto.randomUUID();
  url.searchParams.set("chat", id);
  history.replaceState(null, "", url);
  return id;
}

async function start(root: HTMLElement): Promise<void> {
  const chatId = chatIdFromAddress();
  const response = await fetch(`/api/chats/${chatId}`);
  if (!response.ok) throw new Error(`The chat history did not load (HTTP ${response.status}).`);
  const { messages } = (await response.json()) as { messages: UIMessage[] };
  createRoot(root).render(<ChatApp chatId={chatId} initialMessages={messages} />);
}

const root = document.getElementById("root")!;
start(root).catch((error: unknown) => {
  root.textContent = (error as Error).message;
});
