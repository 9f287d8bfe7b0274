// The fake S3-compatible store of the tests in a process of its own, for bench/uploads/upload-stores.ts:
// prints its endpoint on stdout and serves until killed.
import { startFakeS3 } from "../../test/support/fake-s3.js";

const fake = await startFakeS3("AKIAMEASURE");
process.stdout.write(`${fake.endpoint}\n`);
