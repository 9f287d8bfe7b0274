// The handover's per-database SQL behind one interface: a read's claim on a job's rows, and its completion.
import type { Kysely } from "kysely";
import type { Database, VideoRow } from "./tables.js";

/** A read's claim: the job, the claim's token, now, and when the claim lapses unless renewed. */
export interface HandoverClaimTerms {
  jobId: string;
  token: string;
  now: number;
  until: number;
}

export interface HandoverSql {
  /**
   * Claims the job's rows for the read holding `token`, if the job is not handed over and no live claim
   * stands, and answers its videos in order with the job's data key (null where none is kept), all
   * at once so that nothing comes between; undefined when the claim was refused.
   */
  claim(
    db: Kysely<Database>,
    terms: HandoverClaimTerms,
  ): Promise<{ videos: VideoRow[]; dataKey: Buffer | null } | undefined>;
  /**
   * Records the handover and deletes the rows, the submitted URLs and the job's data key, if the read
   * holding `token` still holds the claim; answers the key's partition (the part of the files the
   * eraser rewrites, where keys are partitioned), or undefined when the claim was no longer held.
   */
  complete(
    db: Kysely<Database>,
    handover: { jobId: string; token: string; now: number },
  ): Promise<{ keyPartition: string | undefined } | undefined>;
}
