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

/** A claim won: the job's videos in order, its data key, and whether its rows were put back once already. */
export interface ClaimedRows {
  videos: VideoRow[];
  /** The job's data key; null where none is kept. */
  dataKey: Buffer | null;
  /** A whole answer's reset put the rows back before: this claim's whole answer hands them over for good. */
  final: boolean;
}

export interface HandoverSql {
  /**
   * Claims the job's rows for the read holding `token`, if the job is not handed over and no live claim
   * stands, and answers its videos in order with the job's data key and whether the claim is final, all
   * at once so that nothing comes between; undefined when the claim was refused.
   */
  claim(db: Kysely<Database>, terms: HandoverClaimTerms): Promise<ClaimedRows | undefined>;
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
