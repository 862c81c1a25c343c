/**
 * Threads that persist. pg, @electric-sql/pglite and ioredis are optional peer dependencies.
 * @module toolwright/conversations
 */
export type { ConversationLimits } from "./conversationLimits";
export type { ConversationAppendOptions, ConversationAppendResult, ConversationListOptions, ConversationMetadata, ConversationMetadataUpdate, ConversationPage, ConversationStore, ConversationSummary, ConversationThread } from "./conversationStore";
export { ConversationAppendError } from "../agent/conversationAppendError";
export { ConversationConflictError, ConversationCorruptError, ConversationError, ConversationLimitError, ConversationRunConflictError } from "./errors";
export { memoryConversationStore } from "./memoryConversationStore";
export type { MemoryConversationStoreOptions } from "./memoryConversationStore";
export { migrateConversationStore } from "./migrateConversationStore";
export type { ConversationDatabase } from "./migrateConversationStore";
export { pgliteConversationStore } from "./pgliteConversationStore";
export type { PgliteConversationStoreOptions } from "./pgliteConversationStore";
export { postgresConversationStore } from "./postgresConversationStore";
export type { PostgresConversationStoreOptions } from "./postgresConversationStore";
export { redisConversationStore } from "./redisConversationStore";
export type { RedisConversationStoreOptions } from "./redisConversationStore";
