// Turning every waiting job's videos into queue rows, for tests that look at the queue without a worker.
import { admitWaitingJobs } from "../../src/pipeline/admissions.js";
import type { Store } from "../../src/store/database.js";

/** Admits every job waiting in `job_admissions`, a claim's worth at a time, as workers would. */
export async function admitAllWaitingJobs(store: Store): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const left = await store.db
      .selectFrom("job_admissions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    if (Number(left.n) === 0) return;
    await store.db.transaction().execute((trx) => admitWaitingJobs(store, trx, Date.now()));
  }
  throw new Error("jobs were still waiting for admission after 1,000 rounds");
}
