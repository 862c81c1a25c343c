import { isToolUIPart, type UIMessage } from "ai";
import { ToolCard, type ApprovalResponse } from "./ToolCard";

/** One message: its text, its reasoning folded away, and a card per tool call. */
// `busy`: a reply is still streaming; an answer to an approval waits until it has ended (answering
// mid-stream would have useChat send the answer while the reply that asked is still arriving).
export function MessageView({ message, busy, onApproval }: { message: UIMessage; busy: boolean; onApproval: (response: ApprovalResponse) => void }) {
  return (
    <li className="message" data-role={message.role} data-testid={`message-${message.role}`}>
      {message.parts.map((part, index) => {
        if (part.type === "text") return <p key={index}>{part.text}</p>;
        if (part.type === "reasoning") {
          return (
            <details key={index}>
              <summary>Reasoning</summary>
              <p>{part.text}</p>
            </details>
          );
        }
        if (isToolUIPart(part)) return <ToolCard key={part.toolCallId} part={part} busy={busy} onApproval={onApproval} />;
        return null;
      })}
    </li>
  );
}
