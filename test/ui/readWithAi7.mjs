// Reads a UI message stream the way ai 7's useChat does (DefaultChatTransport: POST, SSE, chunk schema)
// into its final UIMessage with ai 7's readUIMessageStream. ai 7 is an ES module only, so the jest
// tests run this in a child process: node test/ui/readWithAi7.mjs <url>. Prints { message, errors }.
import { DefaultChatTransport, readUIMessageStream } from "ai7";

const url = process.argv[2];
const errors = [];
const transport = new DefaultChatTransport({ api: url });
let message;
try {
  const stream = await transport.sendMessages({
    trigger: "submit-message",
    chatId: "chat-1",
    messageId: undefined,
    messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Refund order A-100, please." }] }],
    abortSignal: undefined,
  });
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(String(error?.message ?? error)) })) message = snapshot;
} catch (error) {
  errors.push(String(error?.message ?? error));
}
process.stdout.write(JSON.stringify({ message, errors }));
