// An uploaded file as a video of a job (contract section 13, "Uploads"): submitted as `upload:<upload_id>`,
// and known by that same string as its video_id, so that a job's results name the upload they came from.

/** The platform part of an upload's video_id. */
export const uploadPlatform = "upload";

/** An upload's id as `POST /v1/uploads` makes it (domain/ids.ts: `upl_` and 26 characters). */
const uploadIdPattern = /^upl_[0-9a-z]{26}$/;

/** Whether a submitted element means an upload at all: it starts `upload:`, whatever follows. */
export function namesUpload(reference: string): boolean {
  return reference.startsWith(`${uploadPlatform}:`);
}

/** The upload id of an `upload:<upload_id>` reference or video_id; null for anything else. */
export function uploadIdOf(videoId: string): string | null {
  if (!namesUpload(videoId)) return null;
  const id = videoId.slice(uploadPlatform.length + 1);
  return uploadIdPattern.test(id) ? id : null;
}

/** The video_id of an upload. */
export function uploadVideoId(uploadId: string): string {
  return `${uploadPlatform}:${uploadId}`;
}
