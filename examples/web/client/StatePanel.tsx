import type { ChatStatus, UIMessage } from "ai";

/** The run's state as the server last sent it (the latest `data-state` part), beside the chat. */
export function StatePanel({ messages, status }: { messages: UIMessage[]; status: ChatStatus }) {
  const latest = messages
    .flatMap((message) => message.parts)
    .filter((part) => part.type === "data-state")
    .at(-1) as { data: Record<string, unknown> } | undefined;
  return (
    <aside data-testid="state">
      <h2>Run state</h2>
      <p>
        Status: <span data-testid="status">{status}</span>
      </p>
      {latest ? (
        <dl>
          {Object.entries(latest.data).map(([key, value]) => (
            <div key={key} data-testid={`state-${key}`}>
              <dt>{key}</dt>
              <dd>
                <pre>{JSON.stringify(value, null, 1)}</pre>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>No state yet.</p>
      )}
    </aside>
  );
}
