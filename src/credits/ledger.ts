// The credit ledger's one writer: every change of a balance leaves a line here, with the balance after it.
import { type Kysely, sql, type Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import { type Write, write } from "../store/combined-writes.js";
import { databaseSql } from "../store/database-sql.js";
import { preparedSqlPerStore } from "../store/prepared-query.js";
import type { CreditEntryKind, Database } from "../store/tables.js";

export interface CreditEntry {
  readonly workspaceId: string;
  readonly kind: CreditEntryKind;
  /** Signed change of the balance. */
  readonly amount: number;
  readonly balanceAfter: number;
}

/**
 * Writes the entries in one statement, whatever their number: a settlement's batch writes a line per
 * charged video, and inside its transaction every statement is a round trip made while it holds locks.
 */
export async function recordCreditEntries(
  db: Kysely<Database> | Transaction<Database>,
  entries: readonly CreditEntry[],
  now: number,
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto("credit_ledger")
    .values(
      entries.map((entry) => ({
        id: newId("led", now),
        workspace_id: entry.workspaceId,
        kind: entry.kind,
        amount: entry.amount,
        balance_after: entry.balanceAfter,
        created_at: now,
      })),
    )
    .execute();
}

/** Ledger lines from a JSON array of `{ id, workspace_id, kind, amount, balance_after }`, in one prepared statement. */
const insertEntries = preparedSqlPerStore<{ entries: string; now: number }, never>((dialect, slots) => {
  const entries = databaseSql(dialect).vocabulary.jsonRecords(slots.entries, {
    id: "text",
    workspace_id: "text",
    kind: "text",
    amount: "bigint",
    balance_after: "bigint",
  });
  return sql`insert into credit_ledger (id, workspace_id, kind, amount, balance_after, created_at)
    select ${entries.fields}, ${slots.now} from ${entries.from}`;
});

/** `recordCreditEntries` as a write to send with a settlement's others (store/combined-writes.ts). */
export function creditEntriesWrite(
  db: Kysely<Database>,
  entries: readonly CreditEntry[],
  now: number,
): Write {
  const rows = entries.map((entry) => ({
    id: newId("led", now),
    workspace_id: entry.workspaceId,
    kind: entry.kind,
    amount: entry.amount,
    balance_after: entry.balanceAfter,
  }));
  return write(insertEntries(db), { entries: JSON.stringify(rows), now });
}
