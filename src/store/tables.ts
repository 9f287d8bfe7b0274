// The store's tables as Kysely sees them. Times are Unix milliseconds; money is whole credits.
import type { Generated, Insertable, Selectable } from "kysely";

export interface MetaTable {
  key: string;
  value: string;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan_id: string;
  created_at: number;
  cycle_started_at: number;
  balance: number;
  used_this_cycle: number;
  hard_cap: number | null;
  // Usage counters, kept by the transactions that change them so that reading usage never scans.
  jobs_queued: Generated<number>;
  jobs_processing: Generated<number>;
  jobs_done: Generated<number>;
  jobs_failed: Generated<number>;
  videos_processed: Generated<number>;
}

export type CreditEntryKind = "initial" | "grant" | "cycle_reset" | "plan_change" | "charge";

export interface CreditLedgerTable {
  id: string;
  workspace_id: string;
  kind: CreditEntryKind;
  /** Signed change of the balance. */
  amount: number;
  balance_after: number;
  created_at: number;
}

export interface DailyCreditsTable {
  workspace_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  credits: number;
}

export interface FailureCountsTable {
  workspace_id: string;
  code: string;
  count: number;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  environment: "live" | "test";
  label: string;
  note: string;
  key_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface SchemasTable {
  id: string;
  workspace_id: string;
  name: string;
  latest_version: number;
  created_at: number;
}

export interface SchemaVersionsTable {
  schema_id: string;
  version: number;
  /** The schema object as JSON text, exactly as published. */
  definition: string;
  description: string;
  created_at: number;
}

export interface RateLimitWindowsTable {
  /** `ws:<workspace id>` or `ip:<address>`. */
  subject: string;
  window_started_at: number;
  hits: number;
}

export interface Database {
  meta: MetaTable;
  workspaces: WorkspacesTable;
  credit_ledger: CreditLedgerTable;
  daily_credits: DailyCreditsTable;
  failure_counts: FailureCountsTable;
  api_keys: ApiKeysTable;
  schemas: SchemasTable;
  schema_versions: SchemaVersionsTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type NewWorkspace = Insertable<WorkspacesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
