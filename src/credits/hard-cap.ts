// The workspace's own ceiling on credits used in a cycle (`PATCH /v1/usage`).
import type { Kysely } from "kysely";
import type { Database } from "../store/tables.js";

/** Sets the ceiling, or clears it with null. Submissions and settlements check it (reservation.ts, settlement-charges.ts). */
export async function setHardCap(db: Kysely<Database>, workspaceId: string, hardCap: number | null) {
  await db.updateTable("workspaces").set({ hard_cap: hardCap }).where("id", "=", workspaceId).execute();
}
