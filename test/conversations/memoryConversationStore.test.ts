import { memoryConversationStore } from "toolwright/conversations";
import { conversationStoreConformance } from "./conformance";

// One store object is the whole database: both "clients" are it.
conversationStoreConformance("memoryConversationStore", async () => {
  const store = memoryConversationStore();
  return { store, second: store, close: () => store.close() };
}, { storedForm: false });
