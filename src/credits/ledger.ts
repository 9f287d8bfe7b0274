// The credit ledger's one writer: every change of a balance leaves a line here, with the balance after it.
import type { Kysely, Transaction } from "kysely";
import { newId } from "../domain/ids.js";
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
