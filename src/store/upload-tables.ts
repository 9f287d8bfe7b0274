// The uploads table as Kysely sees it (kept apart from tables.ts, which holds the rest, to keep each file short).

/** A file a workspace uploaded (migration 0016); its bytes are in the upload store, not here. */
export interface UploadsTable {
  id: string;
  workspace_id: string;
  bytes: number;
  /** The seconds the audio's packets span, in milliseconds. */
  duration_ms: number;
  /** The index of the file's first subtitle stream, null when it has none. */
  subtitle_stream: number | null;
  /** null while pending; the job that took the upload afterwards. */
  job_id: string | null;
  created_at: number;
  expires_at: number;
}
