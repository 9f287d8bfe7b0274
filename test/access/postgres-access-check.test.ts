// PostgreSQL's key check, shared by the requests of a key that arrive together: it answers none that arrived
// after it was sent.
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/domain/api-key-material.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { useHeldAccessCheck } from "../support/held-answers.js";

const postgres = dialects.find((d) => d.name === "postgres");

describe.skipIf(!postgres || postgres.skipReason !== null)(
  `the key check shared by concurrent requests on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    const rig = useHeldAccessCheck();

    it("refuses a request that arrived after its key was revoked, though a check sent before comes back live", async () => {
      const key = await rig.usedKey();
      rig.answers.hold();
      const before = rig.keyCheck.admit(key, Date.now());
      // The check above has read the key, live; its answer is still on its way when the key is revoked.
      await rig.answers.answerHeld();
      await rig.server.app.store.db
        .updateTable("api_keys")
        .set({ revoked_at: Date.now() })
        .where("key_hash", "=", hashApiKey(key))
        .execute();
      const after = rig.keyCheck.admit(key, Date.now());
      rig.answers.release();
      expect((await before).caller).not.toBeNull();
      expect((await after).caller).toBeNull();
    });
  },
);
