// The settings that size what a process keeps in memory: SQLite's page cache, memory-mapped reads and
// prepared statements per connection, and the remembered answers (docs/operations.md, "Memory budget").
import { integerSetting } from "./setting-values.js";

export interface MemorySettings {
  /** VIDROWS_SQLITE_CACHE_MB (16): SQLite's page cache per connection, MiB. */
  readonly sqliteCacheMb: number;
  /**
   * VIDROWS_SQLITE_MMAP_MB (256): how much of the SQLite file is read through memory mapping, MiB. Those
   * pages count in the process's RSS, but they are the kernel's file cache, which it takes back when
   * short of memory; 0 reads through system calls only.
   */
  readonly sqliteMmapMb: number;
  /** VIDROWS_SQLITE_STATEMENTS (1000): prepared statements kept per SQLite connection. */
  readonly sqliteStatements: number;
  /** VIDROWS_REMEMBERED_ANSWERS (256): answers each kind of remembered read keeps (job, list page, usage, key list). */
  readonly rememberedAnswers: number;
}

export const defaultMemorySettings: MemorySettings = Object.freeze({
  sqliteCacheMb: 16,
  sqliteMmapMb: 256,
  sqliteStatements: 1000,
  rememberedAnswers: 256,
});

export function memorySettings(env: NodeJS.ProcessEnv): MemorySettings {
  const d = defaultMemorySettings;
  return Object.freeze({
    sqliteCacheMb: integerSetting(env, "VIDROWS_SQLITE_CACHE_MB", d.sqliteCacheMb, 1, 65_536),
    sqliteMmapMb: integerSetting(env, "VIDROWS_SQLITE_MMAP_MB", d.sqliteMmapMb, 0, 1_048_576),
    sqliteStatements: integerSetting(env, "VIDROWS_SQLITE_STATEMENTS", d.sqliteStatements, 10, 100_000),
    rememberedAnswers: integerSetting(env, "VIDROWS_REMEMBERED_ANSWERS", d.rememberedAnswers, 1, 1_000_000),
  });
}
