// A process of its own that reads an upload from the store its settings name, as a worker on another
// machine does: `node --import tsx upload-reader.ts <upload id> <copy to>`, with DATABASE_URL and the
// upload settings in its environment. It copies the local file the store gives, releases it, and prints
// `{"path": ..., "bytes": ...}`; it exits 1, saying why on stderr, when the store cannot give the upload.
import { copyFile, stat } from "node:fs/promises";
import { loadConfig } from "../../src/config.js";
import { uploadSettings } from "../../src/config/upload-settings.js";
import { openStore } from "../../src/store/database.js";
import { createUploadStore } from "../../src/uploads/create-uploads.js";

const [uploadId = "", copyTo = ""] = process.argv.slice(2);
const config = loadConfig(process.env);
const store = openStore(config.database);
try {
  const uploads = createUploadStore(store, config.uploads ?? uploadSettings(process.env, config.database), {
    afterDeletion: () => {},
  });
  const local = await uploads.localFile(uploadId);
  await copyFile(local.path, copyTo);
  await local.release();
  process.stdout.write(`${JSON.stringify({ path: local.path, bytes: (await stat(copyTo)).size })}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
}
