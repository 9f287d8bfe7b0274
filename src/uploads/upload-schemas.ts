// The uploads API's answers: each shape defined once, as the schema the routes document and serialise by, and
// as the type (`Static`) the service returns.
import { type Static, Type } from "typebox";
import { formatTimestamp } from "../domain/timestamps.js";
import { refTo, Timestamp } from "../http/common-schemas.js";

export const Upload = Type.Object(
  {
    upload_id: Type.String({ examples: ["upl_01jd7x3k9q8f2m5n6p7r8s9t0v"] }),
    bytes: Type.Integer({ minimum: 0, description: "The file's size as received." }),
    duration_seconds: Type.Number({
      minimum: 0,
      description:
        "The seconds the file's audio spans, measured by ffmpeg from its packets (what a job is billed for).",
    }),
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  {
    $id: "Upload",
    description:
      "A file uploaded for a job, kept until `expires_at` or until deleted. (Jobs do not take uploads yet: `upload:<upload_id>` in `videos` is the next step.)",
  },
);
export type UploadView = Static<typeof Upload>;

export const UploadList = Type.Object({ data: Type.Array(refTo(Upload)) }, { $id: "UploadList" });

/** The uploads API's named schemas, for `app.addSchema`, each after the ones it refers to. */
export const uploadComponents = [Upload, UploadList];

interface UploadRowFields {
  readonly id: string;
  readonly bytes: number;
  readonly duration_ms: number;
  readonly created_at: number;
  readonly expires_at: number;
}

export function uploadView(row: UploadRowFields): UploadView {
  return {
    upload_id: row.id,
    bytes: Number(row.bytes),
    duration_seconds: Number(row.duration_ms) / 1000,
    created_at: formatTimestamp(Number(row.created_at)),
    expires_at: formatTimestamp(Number(row.expires_at)),
  };
}
