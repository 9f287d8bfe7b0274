// A pipeline server set up for uploads: files kept in a folder of its own, speech-to-text through the fake
// transcription endpoint, and a fake model that finds the blue kettle in what it is sent. The suites that
// turn uploads into rows (or refuse them) differ only in what the endpoint hears and the worker's settings.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../src/config.js";
import { uploadSettings } from "../../src/config/upload-settings.js";
import type { DialectName } from "./databases.js";
import { rowOnLineWith } from "./fake-model.js";
import {
  type FakeTranscription,
  fakeTranscriptionSettings,
  startFakeTranscription,
  verboseReply,
} from "./fake-transcription.js";
import { type PipelineServer, startPipelineServer } from "./pipeline.js";

export interface UploadPipeline {
  readonly server: PipelineServer;
  readonly transcription: FakeTranscription;
  /** Where the server keeps uploaded files (the folder upload store). */
  readonly folder: string;
  /** A key of the server's workspace. */
  readonly key: string;
  close(): Promise<void>;
}

/** The kettle's row, as the fake model answers a line that names it. */
const kettleRow = { product: "kettle", price: 30 } as const;

/**
 * Starts the server. `heard` is what the transcription endpoint answers for any audio: segments of
 * [start, end, text]. One attempt at speech-to-text, so that a failure shows at once.
 */
export async function startUploadPipeline(
  dialect: DialectName,
  options: { heard: [start: number, end: number, text: string][]; worker?: Config["worker"] },
): Promise<UploadPipeline> {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-uploads-"));
  const transcription = await startFakeTranscription(() => verboseReply(options.heard));
  // The reserve kept free on the upload folder's disk: none, since tests do not fill it.
  const settings = uploadSettings({ VIDROWS_UPLOAD_RESERVE_MB: "0" }, { kind: "sqlite", path: "unused" });
  const server = await startPipelineServer(dialect, {
    respond: rowOnLineWith("kettle", kettleRow),
    config: {
      uploads: { ...settings, store: { kind: "folder", path: folder } },
      transcription: fakeTranscriptionSettings(transcription),
      ...(options.worker && { worker: options.worker }),
    },
    app: { transcription: { attempts: 1, retryBaseMs: 10 } },
  }).catch(async (error: unknown) => {
    await transcription.close();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  });
  const { key } = await server.workspace();
  return {
    server,
    transcription,
    folder,
    key,
    async close() {
      await server.close();
      await transcription.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
