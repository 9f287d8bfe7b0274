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

/** An upload whose bytes are in the database (migration 0017): its data key, and its size once whole. */
export interface UploadBlobsTable {
  upload_id: string;
  data_key: Buffer;
  started_at: number;
  /** null while the body still arrives. */
  stored_bytes: number | null;
}

/** A sealed piece of an upload's bytes, in order from seq 0. */
export interface UploadChunksTable {
  upload_id: string;
  seq: number;
  bytes: Buffer;
}
