import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";

/** What the approve and reject buttons answer (useChat's addToolApprovalResponse). */
export interface ApprovalResponse {
  id: string;
  approved: boolean;
  reason?: string;
}

const stateLabels: Record<ToolUIPart["state"], string> = {
  "input-streaming": "preparing…",
  "input-available": "running…",
  "approval-requested": "needs your approval",
  "approval-responded": "answered, waiting…",
  "output-available": "done",
  "output-error": "failed",
  "output-denied": "rejected",
};

/** A tool call: its name, arguments, result or error, and approve/reject while it waits for a person. */
export function ToolCard({ part, busy, onApproval }: { part: ToolUIPart | DynamicToolUIPart; busy: boolean; onApproval: (response: ApprovalResponse) => void }) {
  const name = getToolName(part);
  const preliminary = part.state === "output-available" && part.preliminary === true;
  return (
    <section className="tool" data-testid="tool-card" data-tool={name} data-state={part.state}>
      <header>
        <strong>{name}</strong>
        <span>{preliminary ? "working…" : stateLabels[part.state]}</span>
      </header>
      {part.input !== undefined && <pre aria-label="arguments">{JSON.stringify(part.input, null, 1)}</pre>}
      {part.state === "output-available" && <pre aria-label="result">{typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 1)}</pre>}
      {part.state === "output-error" && <pre aria-label="error">{part.errorText}</pre>}
      {part.state === "approval-requested" && (
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => onApproval({ id: part.approval.id, approved: true })}>
            Approve
          </button>
          <button type="button" disabled={busy} onClick={() => onApproval({ id: part.approval.id, approved: false, reason: "Rejected in the chat by the customer." })}>
            Reject
          </button>
        </div>
      )}
    </section>
  );
}
