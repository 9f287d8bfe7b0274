// The New job form's files: dropped on the field or chosen with the browser's file picker, each shown with
// its upload's progress, then its measured length, or the server's reason for refusing it.
import { useState } from "preact/hooks";
import { formatBytes, formatVideoTime } from "../lib/format.js";
import type { FileUploads, PickedFile } from "../lib/use-file-uploads.js";
import { ErrorMessage } from "./error-message.js";

function PickedFileItem({ file, onRemove }: { file: PickedFile; onRemove: () => void }) {
  const percent = file.bytes === 0 ? 100 : Math.floor((100 * file.sentBytes) / file.bytes);
  return (
    <li class="picked-file">
      <div class="picked-file-head">
        <span class="picked-file-name">{file.name}</span>
        <button type="button" class="plain" aria-label={`Remove ${file.name}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      {file.upload ? (
        <p class="hint">
          Uploaded: {formatVideoTime(file.upload.duration_seconds)} long, {formatBytes(file.upload.bytes)}
        </p>
      ) : file.error !== undefined ? (
        <ErrorMessage error={file.error} />
      ) : (
        <div class="picked-file-progress">
          <progress max={100} value={percent} aria-label={`Uploading ${file.name}`} />
          <span class="hint">
            {percent}% of {formatBytes(file.bytes)}
          </span>
        </div>
      )}
    </li>
  );
}

export function FilePicker({ uploads }: { uploads: FileUploads }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div class="field">
      <label for="job-files">Files</label>
      <p class="hint" id="job-files-hint">
        Audio or video files of your own (a meeting, a lecture, a call): drop them here or choose them. Each
        is uploaded at once; the server keeps it only until its job has read it.
      </p>
      <div
        class={dragging ? "drop-zone dragging" : "drop-zone"}
        onDragOver={(event) => {
          // Accepting the drag is what lets the drop land here rather than open the file in the tab.
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (event.dataTransfer) uploads.add([...event.dataTransfer.files]);
        }}
      >
        <input
          id="job-files"
          type="file"
          multiple
          accept="audio/*,video/*"
          aria-describedby="job-files-hint"
          onChange={(event) => {
            const input = event.currentTarget;
            uploads.add([...(input.files ?? [])]);
            // Emptied, so that the same file can be chosen again after it was removed.
            input.value = "";
          }}
        />
        <span class="hint" aria-hidden="true">
          or drop files here
        </span>
      </div>
      {uploads.files.length > 0 && (
        <ul class="picked-files">
          {uploads.files.map((file) => (
            <PickedFileItem key={file.key} file={file} onRemove={() => uploads.remove(file.key)} />
          ))}
        </ul>
      )}
    </div>
  );
}
