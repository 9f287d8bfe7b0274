// A submission refused for credits writes nothing: not the job, its admission, nor its places in the queue,
// whether it comes alone or with others of its workspace (on PostgreSQL those go out in one statement).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, exampleJobBody } from "../support/endpoints.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a submission refused for credits on ${dialectTitle(dialect)}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      });
      afterAll(async () => {
        await server?.close();
      });

      const emptyBalance = (workspaceId: string) =>
        server.app.store.db
          .updateTable("workspaces")
          .set({ balance: 0 })
          .where("id", "=", workspaceId)
          .execute();

      it("writes nothing when the workspace may not spend, and says so with 402", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        await emptyBalance(workspaceId);
        const refused = await server.call("POST", "/v1", { key, body: exampleJobBody() });
        expect(refused.status).toBe(402);
        expect(refused.body.error.code).toBe("insufficient_credits");
        const db = server.app.store.db;
        expect(
          await db.selectFrom("jobs").select("id").where("workspace_id", "=", workspaceId).execute(),
        ).toEqual([]);
        expect(
          await db
            .selectFrom("job_admissions")
            .select("job_id")
            .where("workspace_id", "=", workspaceId)
            .execute(),
        ).toEqual([]);
        const row = await db
          .selectFrom("workspaces")
          .select(["jobs_queued", "next_video_priority"])
          .where("id", "=", workspaceId)
          .executeTakeFirstOrThrow();
        expect([Number(row.jobs_queued), Number(row.next_video_priority)]).toEqual([0, 0]);
      });

      if (dialect.name === "postgres") {
        /** Ten submissions of the workspace asked for at the same moment, of 1 to 10 videos. */
        async function tenAtOnce(key: string) {
          const { accessCheck, jobSubmission } = server.app.services;
          const caller = await accessCheck.identify(key);
          if (!caller) throw new Error("the key is live");
          return Promise.allSettled(
            Array.from({ length: 10 }, (_, i) =>
              jobSubmission.submit(caller, {
                videos: Array.from({ length: i + 1 }, (_, v) => `j${i}v${v}`.padEnd(11, "x")),
                schema: { columns: ["product", "price"] },
              }),
            ),
          );
        }

        it("refuses them all when the workspace may not spend, writing none", async () => {
          const { workspaceId, key } = await server.workspace("pro");
          await emptyBalance(workspaceId);
          const outcomes = await tenAtOnce(key);
          for (const outcome of outcomes) {
            expect(outcome.status).toBe("rejected");
            expect((outcome as PromiseRejectedResult).reason.code).toBe("insufficient_credits");
          }
          const jobs = await server.app.store.db
            .selectFrom("jobs")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .execute();
          expect(jobs).toEqual([]);
        });
      }
    },
  );
}
