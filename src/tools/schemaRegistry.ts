import { decodeToolSchemas, type EncodedToolSchemas } from "./encodedToolSchemas";
import type { GeneratedModuleInfo, GeneratedToolEntry } from "./generatedEntry";

/** A registered entry with the module that registered it. */
export interface RegisteredEntry {
  readonly entry: GeneratedToolEntry;
  readonly module: GeneratedModuleInfo;
}

interface Registry {
  records: RegisteredEntry[];
  modules: GeneratedModuleInfo[];
  // owner → records, built lazily because owners are read through thunks (import cycles).
  byOwner: Map<unknown, RegisteredEntry[]> | undefined;
}

// On globalThis under a registry symbol, so that two copies of toolwright (CJS and ESM) share it.
const key = Symbol.for("toolwright.generatedSchemas.v1");
const globalStore = globalThis as unknown as { [key]?: Registry };

function registry(): Registry {
  return (globalStore[key] ??= { records: [], modules: [], byOwner: undefined });
}

/**
 * Registers the entries of a generated module and returns them; the generated module calls this
 * when it is imported. It passes them encoded (`EncodedToolSchemas`: JSON data plus owner thunks);
 * an array of entries (the form of modules generated before the compact format) is still accepted
 * as it is. Registering the same module again replaces its entries. Throws
 * `StaleSchemaError` when encoded data cannot be read (see `decodeToolSchemas`).
 */
export function registerToolSchemas(tools: readonly GeneratedToolEntry[] | EncodedToolSchemas, info: GeneratedModuleInfo): readonly GeneratedToolEntry[] {
  const entries = isEntryArray(tools) ? tools : decodeToolSchemas(tools, info);
  const r = registry();
  r.records = r.records.filter((record) => record.module.module !== info.module);
  r.modules = [...r.modules.filter((m) => m.module !== info.module), info];
  for (const entry of entries) r.records.push({ entry, module: info });
  r.byOwner = undefined;
  return entries;
}

function isEntryArray(tools: readonly GeneratedToolEntry[] | EncodedToolSchemas): tools is readonly GeneratedToolEntry[] {
  return Array.isArray(tools);
}

/** The registered entries of an owner (a class, or a `defineTool` result). */
export function generatedEntriesOf(owner: unknown): readonly RegisteredEntry[] {
  const r = registry();
  if (!r.byOwner) {
    const byOwner = new Map<unknown, RegisteredEntry[]>();
    for (const record of r.records) {
      const target = record.entry.owner();
      byOwner.set(target, [...(byOwner.get(target) ?? []), record]);
    }
    r.byOwner = byOwner;
  }
  return r.byOwner.get(owner) ?? [];
}

/** Every registered entry, in registration order. */
export function generatedEntries(): readonly RegisteredEntry[] {
  return registry().records;
}

/** The generated modules registered so far. */
export function registeredModules(): readonly GeneratedModuleInfo[] {
  return registry().modules;
}

/** Forgets every registered entry (for tests). */
export function clearToolSchemas(): void {
  globalStore[key] = { records: [], modules: [], byOwner: undefined };
}
