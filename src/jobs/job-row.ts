// The row a submission writes to `jobs`, its columns defined once for every statement that writes one.
import type { StoredTranscribeMode } from "../domain/transcribe-mode.js";
import type { JobsTable } from "../store/tables.js";

/** What a submission says of its job; every other column of the row starts the same for all new jobs. */
export interface SubmittedJobFields {
  jobId: string;
  workspaceId: string;
  schemaLabel: string;
  /** The schema as JSON text. */
  schemaDefinition: string;
  language: string | null;
  transcribe: StoredTranscribeMode | null;
  /** 0 for `"reuse": false`; null reuses kept transcripts. */
  reuseTranscripts: number | null;
  videoCount: number;
  /** When it arrived, Unix ms. */
  createdAt: number;
}

type ColumnSource = { readonly field: keyof SubmittedJobFields } | { readonly constant: string | number };

/**
 * Each column of a new job's row: the submission's field it holds, or the value every new job starts
 * with (all its videos queued, nothing settled, nothing charged). The columns left out (completion,
 * handover, cancellation) start null.
 */
const newJobColumns = {
  id: { field: "jobId" },
  workspace_id: { field: "workspaceId" },
  schema_label: { field: "schemaLabel" },
  schema_definition: { field: "schemaDefinition" },
  language: { field: "language" },
  transcribe: { field: "transcribe" },
  reuse_transcripts: { field: "reuseTranscripts" },
  status: { constant: "processing" },
  video_count: { field: "videoCount" },
  queued_count: { field: "videoCount" },
  processing_count: { constant: 0 },
  done_count: { constant: 0 },
  failed_count: { constant: 0 },
  has_failures: { constant: 0 },
  credits_charged: { constant: 0 },
  created_at: { field: "createdAt" },
} as const satisfies Partial<Record<keyof JobsTable, ColumnSource>>;

export type NewJobColumn = keyof typeof newJobColumns;

/** The new job's columns, in one fixed order: an INSERT's column list and its SELECT's values agree. */
export const newJobColumnNames = Object.keys(newJobColumns) as NewJobColumn[];

/**
 * The new job's row with each column's value made by `fromField` (a value, a statement's slot or an
 * expression for the submission's field) or by `fromConstant` (for the values all new jobs share).
 */
export function newJobRow<Value>(
  fromField: (field: keyof SubmittedJobFields, column: NewJobColumn) => Value,
  fromConstant: (value: string | number, column: NewJobColumn) => Value,
): Record<NewJobColumn, Value> {
  const row = {} as Record<NewJobColumn, Value>;
  for (const column of newJobColumnNames) {
    const source: ColumnSource = newJobColumns[column];
    row[column] = "field" in source ? fromField(source.field, column) : fromConstant(source.constant, column);
  }
  return row;
}
