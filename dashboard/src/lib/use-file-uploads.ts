// The New job form's files: each uploaded as soon as it is dropped or picked (`vr.uploads.create`), its
// progress followed, and sent with the job as the video `upload:<upload_id>` once the server has it.
import type { Upload } from "@vidrows/client";
import { useEffect, useRef, useState } from "preact/hooks";
import { useSession } from "../session/session.js";
import { fetchReportingProgress } from "./progress-fetch.js";
import { endSessionOnUnauthorized } from "./use-api.js";

/** A file the person gave the form: still uploading (`sentBytes` of `bytes`), uploaded, or refused. */
export interface PickedFile {
  /** Tells files of the same name apart in the list. */
  readonly key: number;
  readonly name: string;
  readonly bytes: number;
  readonly sentBytes: number;
  /** The server's answer, once the whole file is stored and measured. */
  readonly upload?: Upload;
  /** Why the server refused it, or why it could not be sent. */
  readonly error?: unknown;
}

export interface FileUploads {
  readonly files: readonly PickedFile[];
  /** Whether a file is still on its way: the job waits for it. */
  readonly uploading: boolean;
  /** The uploads the job takes, as `videos` names them. */
  readonly videos: readonly string[];
  add(files: Iterable<File>): void;
  /** Takes the file out of the job: stops its upload, or deletes the stored file from the server. */
  remove(key: number): void;
}

/** The video a job reads an upload as. */
export function uploadVideo(uploadId: string): string {
  return `upload:${uploadId}`;
}

export function useFileUploads(): FileUploads {
  const session = useSession();
  const [files, setFiles] = useState<readonly PickedFile[]>([]);
  const lastKey = useRef(0);
  const stoppers = useRef(new Map<number, AbortController>());
  // Leaving the page stops the uploads under way; an upload already stored expires on the server unused.
  useEffect(() => () => stoppers.current.forEach((stopper) => stopper.abort()), []);

  const change = (key: number, update: Partial<PickedFile>) =>
    setFiles((list) => list.map((file) => (file.key === key ? { ...file, ...update } : file)));

  const add = (picked: Iterable<File>) => {
    for (const file of picked) {
      const key = ++lastKey.current;
      const stopper = new AbortController();
      stoppers.current.set(key, stopper);
      setFiles((list) => [...list, { key, name: file.name, bytes: file.size, sentBytes: 0 }]);
      const client = session.clientOver(fetchReportingProgress((sentBytes) => change(key, { sentBytes })));
      client.uploads
        .create(file, { signal: stopper.signal })
        .then(
          (upload) => change(key, { upload, sentBytes: file.size }),
          (error: unknown) => {
            if (stopper.signal.aborted || endSessionOnUnauthorized(session, error)) return;
            change(key, { error });
          },
        )
        .finally(() => stoppers.current.delete(key));
    }
  };

  const remove = (key: number) => {
    stoppers.current.get(key)?.abort();
    const upload = files.find((file) => file.key === key)?.upload;
    // Deleted at once so that nothing of it stays; should the call fail, the server deletes an upload no
    // job took once VIDROWS_UPLOAD_RETENTION_HOURS pass.
    if (upload !== undefined) session.client.uploads.delete(upload.upload_id).catch(() => {});
    setFiles((list) => list.filter((file) => file.key !== key));
  };

  return {
    files,
    uploading: files.some((file) => file.upload === undefined && file.error === undefined),
    videos: files.flatMap((file) => (file.upload ? [uploadVideo(file.upload.upload_id)] : [])),
    add,
    remove,
  };
}
