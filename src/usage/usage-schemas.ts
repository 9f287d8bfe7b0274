// The usage object: defined once, as the schema the routes document and serialise by, and as the type
// (`Static`) the usage report returns.
import { type Static, Type } from "typebox";
import { Timestamp } from "../http/common-schemas.js";

const Count = Type.Integer({ minimum: 0 });

export const Usage = Type.Object(
  {
    credits: Type.Object({
      balance: Count,
      used_this_cycle: Count,
      cycle_allowance: Count,
      hard_cap: Type.Union([Count, Type.Null()], {
        description: "Ceiling on credits used in a cycle, or null.",
      }),
    }),
    cycle: Type.Object({ started_at: Timestamp, ends_at: Timestamp }),
    plan: Type.Object({ id: Type.String(), name: Type.String(), requests_per_minute: Count }),
    jobs: Type.Object({ queued: Count, processing: Count, done: Count, failed: Count, total: Count }),
    videos_processed: Count,
    failures_by_code: Type.Record(Type.String(), Count, {
      description: "Failed videos counted by error code.",
    }),
    daily: Type.Array(Type.Object({ date: Type.String({ examples: ["2026-11-22"] }), credits: Count }), {
      description: "The last 14 UTC days, oldest first, ending today.",
    }),
  },
  { $id: "Usage", description: "Credits, the billing cycle, the plan and job figures of the workspace." },
);
export type Usage = Static<typeof Usage>;
