// Whether a workspace can pay a price: the one rule the settlement charges by and the worker checks before
// costly work (a download, a transcription, the model's requests) from a bound the video cannot exceed.
import type { Kysely } from "kysely";
import type { SpendingRoom } from "../domain/media-bounds.js";
import type { Database } from "../store/tables.js";

/** Why a video is not charged but fails: the workspace cannot pay for it. */
export interface ChargeRefusal {
  readonly code: "hard_cap_reached" | "insufficient_credits";
  readonly message: string;
}

/** Why `room` cannot take `price` credits, or null when it can. */
export function refusalOf(price: number, room: SpendingRoom): ChargeRefusal | null {
  if (room.hardCap !== null && room.usedThisCycle + price > room.hardCap) {
    return {
      code: "hard_cap_reached",
      message: `This video costs ${price} credits, which would take the cycle past its hard cap of ${room.hardCap}.`,
    };
  }
  if (room.balance < price) {
    return {
      code: "insufficient_credits",
      message: `This video costs ${price} credits; the balance was ${room.balance}.`,
    };
  }
  return null;
}

/**
 * The workspace's spending room as of now, read without a lock: the settlement checks again under its
 * lock, so a check made from this only spares work that could not be paid for.
 */
export async function readSpendingRoom(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<SpendingRoom & { planId: string }> {
  const row = await db
    .selectFrom("workspaces")
    .select(["balance", "used_this_cycle", "hard_cap", "plan_id"])
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  return {
    balance: row.balance,
    usedThisCycle: row.used_this_cycle,
    hardCap: row.hard_cap,
    planId: row.plan_id,
  };
}
