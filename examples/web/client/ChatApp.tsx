// #region imports
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
// #endregion
import { useMemo, useState, type FormEvent } from "react";
import { MessageView } from "./MessageView";
import { StatePanel } from "./StatePanel";

/** The chat: messages with their tool cards, the input, and the run's state beside them. */
export function ChatApp({ chatId, initialMessages }: { chatId: string; initialMessages: UIMessage[] }) {
  // #region use-chat
  const transport = useMemo(() => new DefaultChatTransport({ api: "/api/chat" }), []);
  const { messages, sendMessage, status, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    // A reloaded page follows the reply still streaming (GET /api/chat/:id/stream).
    resume: true,
    // Once every approval of the last step is answered, the answers go to the server, which resumes the run.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  // #endregion
  const [input, setInput] = useState("");
  const busy = status === "submitted" || status === "streaming";

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!input.trim() || busy) return;
    void sendMessage({ text: input });
    setInput("");
  }

  return (
    <div className="layout">
      <main>
        <h1>Refund desk</h1>
        <ol className="messages" data-testid="messages">
          {messages.map((message) => (
            <MessageView key={message.id} message={message} busy={busy} onApproval={(response) => void addToolApprovalResponse(response)} />
          ))}
        </ol>
        {error && <p role="alert">{error.message}</p>}
        <form onSubmit={submit}>
          <input aria-label="Message" placeholder="Please refund order A-100" value={input} onChange={(event) => setInput(event.target.value)} />
          <button type="submit" disabled={busy}>
            Send
          </button>
        </form>
      </main>
      <StatePanel messages={messages} status={status} />
    </div>
  );
}
