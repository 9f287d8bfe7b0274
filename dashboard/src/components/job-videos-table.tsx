// A job's videos, one row each: status, duration, where a done one's words came from, credits and, for a
// failed one, its error's code and message. Read from `GET /v1/{job_id}/videos`, which never carries or
// takes the rows.
import type { VideoProgress } from "@vidrows/client";
import { formatNumber, formatVideoTime } from "../lib/format.js";
import { TableScroll } from "./table-scroll.js";

const statusWords: Record<VideoProgress["status"], string> = {
  queued: "Queued",
  processing: "Processing",
  done: "Done",
  failed: "Failed",
};

/** Where a done video's words came from, in the words a person reads; null (settled before vidrows said) is a dash. */
const transcriptWords: Record<"captions" | "transcription" | "reused", string> = {
  captions: "Captions",
  transcription: "Speech-to-text",
  reused: "Reused",
};

/** A video failed `cancelled` reads "Cancelled" in grey, as its job does: nothing went wrong with it. */
function shownVideoStatus(video: VideoProgress): string {
  return video.status === "failed" && video.error.code === "cancelled" ? "cancelled" : video.status;
}

export function JobVideosTable({ videos }: { videos: readonly VideoProgress[] }) {
  return (
    <TableScroll label="Videos of this job">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Video</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Transcript</th>
            <th scope="col">Credits</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {videos.map((video, index) => (
            <tr key={video.id ?? `waiting-${index}`} data-video={video.video_id}>
              <td data-label="Video" class="video-id">
                <code>{video.video_id}</code>
              </td>
              <td data-label="Status">
                <span class={`status status-${shownVideoStatus(video)}`}>
                  {shownVideoStatus(video) === "cancelled" ? "Cancelled" : statusWords[video.status]}
                </span>
              </td>
              <td data-label="Duration">
                {video.status === "done" ? formatVideoTime(video.usage.duration_seconds) : "—"}
              </td>
              <td data-label="Transcript" class="video-transcript">
                {video.status === "done" && video.transcript !== null
                  ? transcriptWords[video.transcript]
                  : "—"}
              </td>
              <td data-label="Credits">
                {video.status === "done" || video.status === "failed"
                  ? formatNumber(video.credits_charged)
                  : "—"}
              </td>
              <td data-label="Error" class="video-error">
                {video.status === "failed" ? (
                  // One element, so that the card layout keeps the code and its message together.
                  <span>
                    <code>{video.error.code}</code> {video.error.message}
                  </span>
                ) : (
                  ""
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
