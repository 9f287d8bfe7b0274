// `/v1/schemas`: saving, listing, reading and versioning schemas, and every rule a body must follow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** `count` distinct column names. */
function columns(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `col${i}`);
}

function template(count: number): Record<string, string> {
  return Object.fromEntries(columns(count).map((c) => [c, `the ${c}`]));
}

let nameCounter = 0;
/** A name no other test in this file uses, so tests may share nothing by accident. */
function uniqueName(): string {
  nameCounter += 1;
  return `schema-${nameCounter}`;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Saved schemas on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name);
    });
    afterAll(async () => {
      await server?.close();
    });

    async function save(key: string, body: Record<string, unknown>) {
      const answer = await server.call("POST", "/v1/schemas", { key, body });
      expect(answer.status, answer.text).toBe(201);
      return answer.body as { id: string; name: string; version: number };
    }

    describe("happy paths", () => {
      it("saves a columns schema as version 1 and answers exactly id, name and version", async () => {
        const { key } = await server.workspace();
        const answer = await server.call("POST", "/v1/schemas", {
          key,
          body: { name: "products", description: "What is sold", schema: { columns: ["product", "price"] } },
        });
        expect(answer.status).toBe(201);
        expect(Object.keys(answer.body).sort()).toEqual(["id", "name", "version"]);
        expect(answer.body.id).toMatch(/^sch_[0-9a-z]{26}$/);
        expect(answer.body.name).toBe("products");
        expect(answer.body.version).toBe(1);
      });

      it("saves a template schema and gives it back as it was sent", async () => {
        const { key } = await server.workspace();
        const schema = { template: { product: "the product's name", price: "its price in USD" } };
        const created = await save(key, { name: "priced", schema });
        const read = await server.call("GET", `/v1/schemas/${created.id}`, { key });
        expect(read.status).toBe(200);
        expect(read.body.schema).toEqual(schema);
        expect(read.body.versions[0].schema).toEqual(schema);
        expect(read.body.description).toBe("");
      });

      it("lists each schema at its latest version with its label, and exactly the interface's fields", async () => {
        const { key } = await server.workspace();
        const first = await save(key, { name: "first", description: "one", schema: { columns: ["a"] } });
        const second = await save(key, { name: "second", schema: { template: { b: "bee" } } });
        const published = await server.call("POST", `/v1/schemas/${first.id}/versions`, {
          key,
          body: { schema: { columns: ["a", "b"] }, description: "two" },
        });
        expect(published.status).toBe(201);

        const list = await server.call("GET", "/v1/schemas", { key });
        expect(list.status).toBe(200);
        expect(Object.keys(list.body)).toEqual(["data"]);
        expect(list.body.data).toHaveLength(2);
        // Newest first.
        expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
        const [listedSecond, listedFirst] = list.body.data;
        for (const item of list.body.data) {
          expect(Object.keys(item).sort()).toEqual([
            "created_at",
            "description",
            "id",
            "label",
            "name",
            "schema",
            "version",
          ]);
          expect(item.created_at).toMatch(timestamp);
        }
        expect(listedFirst).toMatchObject({
          id: first.id,
          name: "first",
          description: "two",
          version: 2,
          label: "first-v2",
          schema: { columns: ["a", "b"] },
        });
        expect(listedSecond).toMatchObject({
          name: "second",
          description: "",
          version: 1,
          label: "second-v1",
          schema: { template: { b: "bee" } },
        });
      });

      it("lists nothing for a workspace without schemas", async () => {
        const { key } = await server.workspace();
        const list = await server.call("GET", "/v1/schemas", { key });
        expect(list.status).toBe(200);
        expect(list.body).toEqual({ data: [] });
      });

      it("reads one schema with latest_version and every version, each with its schema and created_at", async () => {
        const { key } = await server.workspace();
        const created = await save(key, {
          name: "menu",
          description: "dishes",
          schema: { columns: ["dish"] },
        });
        const v2 = await server.call("POST", `/v1/schemas/${created.id}/versions`, {
          key,
          body: { schema: { columns: ["dish", "price"] } },
        });
        expect(v2.status).toBe(201);
        expect(v2.body).toEqual({ id: created.id, name: "menu", version: 2 });

        const read = await server.call("GET", `/v1/schemas/${created.id}`, { key });
        expect(read.status).toBe(200);
        expect(read.body).toMatchObject({
          id: created.id,
          name: "menu",
          version: 2,
          latest_version: 2,
          label: "menu-v2",
          schema: { columns: ["dish", "price"] },
          // A version published without a description keeps the previous one's.
          description: "dishes",
        });
        expect(read.body.created_at).toMatch(timestamp);
        expect(read.body.versions).toHaveLength(2);
        expect(read.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
        for (const version of read.body.versions) {
          expect(Object.keys(version).sort()).toEqual([
            "created_at",
            "description",
            "label",
            "schema",
            "version",
          ]);
          expect(version.created_at).toMatch(timestamp);
        }
        expect(read.body.versions[0]).toMatchObject({ label: "menu-v1", schema: { columns: ["dish"] } });
        expect(read.body.versions[1]).toMatchObject({
          label: "menu-v2",
          schema: { columns: ["dish", "price"] },
        });
      });

      it("leaves version 1 exactly as it was when version 2 is published", async () => {
        const { key } = await server.workspace();
        const created = await save(key, {
          name: "stable",
          description: "original",
          schema: { template: { a: "first column" } },
        });
        const before = await server.call("GET", `/v1/schemas/${created.id}`, { key });
        const published = await server.call("POST", `/v1/schemas/${created.id}/versions`, {
          key,
          body: { schema: { template: { a: "changed", z: "new column" } }, description: "edited" },
        });
        expect(published.status).toBe(201);
        expect(published.body.version).toBe(2);
        const after = await server.call("GET", `/v1/schemas/${created.id}`, { key });
        expect(after.body.versions[0]).toEqual(before.body.versions[0]);
        expect(after.body.versions[0]).toMatchObject({
          version: 1,
          description: "original",
          schema: { template: { a: "first column" } },
        });
        expect(after.body.versions[1]).toMatchObject({ version: 2, description: "edited" });
        expect(after.body.created_at).toBe(before.body.created_at);
      });

      it("gives concurrent publications distinct, consecutive versions", async () => {
        const { key } = await server.workspace();
        const created = await save(key, { name: "busy", schema: { columns: ["a"] } });
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            server.call("POST", `/v1/schemas/${created.id}/versions`, {
              key,
              body: { schema: { columns: [`c${i}`] } },
            }),
          ),
        );
        for (const answer of answers) expect(answer.status, answer.text).toBe(201);
        const versions = answers.map((a) => a.body.version as number).sort((x, y) => x - y);
        expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
        const read = await server.call("GET", `/v1/schemas/${created.id}`, { key });
        expect(read.body.latest_version).toBe(9);
        expect(read.body.versions.map((v: { version: number }) => v.version)).toEqual([
          1, 2, 3, 4, 5, 6, 7, 8, 9,
        ]);
      });

      it("accepts the largest values the rules allow", async () => {
        const { key } = await server.workspace();
        const answer = await server.call("POST", "/v1/schemas", {
          key,
          body: {
            name: `a-${"b".repeat(62)}`,
            description: "d".repeat(280),
            schema: { columns: [...columns(49), "x".repeat(64)] },
          },
        });
        expect(answer.status, answer.text).toBe(201);
        const templated = await server.call("POST", "/v1/schemas", {
          key,
          body: { name: "0-9-digits-ok", schema: { template: { ...template(49), last: "w".repeat(500) } } },
        });
        expect(templated.status, templated.text).toBe(201);
      });
    });

    describe("validation", () => {
      const tooManyColumns = { columns: columns(51) };
      const cases: [string, unknown, string][] = [
        ["a missing name", { schema: { columns: ["a"] } }, "name"],
        ["a name with an uppercase letter", { name: "Products", schema: { columns: ["a"] } }, "name"],
        ["a name with a space", { name: "my products", schema: { columns: ["a"] } }, "name"],
        ["a name with an underscore", { name: "my_products", schema: { columns: ["a"] } }, "name"],
        ["an empty name", { name: "", schema: { columns: ["a"] } }, "name"],
        ["a name of 65 characters", { name: "n".repeat(65), schema: { columns: ["a"] } }, "name"],
        ["a name that is not a string", { name: 7, schema: { columns: ["a"] } }, "name"],
        [
          "a description of 281 characters",
          { name: "x", description: "d".repeat(281), schema: { columns: ["a"] } },
          "description",
        ],
        ["a missing schema", { name: "x" }, "schema"],
        ["a schema of neither shape", { name: "x", schema: { fields: ["a"] } }, "schema"],
        ["a schema that is not an object", { name: "x", schema: ["a"] }, "schema"],
        [
          "a schema of both shapes",
          { name: "x", schema: { columns: ["a"], template: { a: "b" } } },
          "schema",
        ],
        ["0 columns", { name: "x", schema: { columns: [] } }, "schema.columns"],
        ["51 columns", { name: "x", schema: tooManyColumns }, "schema.columns"],
        ["an empty column name", { name: "x", schema: { columns: ["a", ""] } }, "schema.columns[1]"],
        [
          "a column name of 65 characters",
          { name: "x", schema: { columns: ["c".repeat(65)] } },
          "schema.columns[0]",
        ],
        ["a column that is not a string", { name: "x", schema: { columns: ["a", 3] } }, "schema.columns[1]"],
        ["a column given twice", { name: "x", schema: { columns: ["a", "b", "a"] } }, "schema.columns"],
        ["a template of 0 entries", { name: "x", schema: { template: {} } }, "schema.template"],
        ["a template of 51 entries", { name: "x", schema: { template: template(51) } }, "schema.template"],
        [
          "a template column name of 65 characters",
          { name: "x", schema: { template: { ["c".repeat(65)]: "too long a name" } } },
          "schema.template",
        ],
        [
          "a template description of 501 characters",
          { name: "x", schema: { template: { a: "d".repeat(501) } } },
          "schema.template.a",
        ],
        [
          "a template value that is not a string",
          { name: "x", schema: { template: { a: 5 } } },
          "schema.template.a",
        ],
        ["an unknown body field", { name: "x", schema: { columns: ["a"] }, tags: ["t"] }, "tags"],
      ];
      for (const [title, body, param] of cases) {
        it(`refuses ${title}`, async () => {
          const { key } = await server.workspace();
          const answer = await server.call("POST", "/v1/schemas", { key, body });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param).toBe(param);
          expect(answer.body.error.message.length).toBeGreaterThan(10);
          // Nothing was saved.
          expect((await server.call("GET", "/v1/schemas", { key })).body.data).toEqual([]);
        });
      }

      it("accepts a name of exactly 64 characters and a description of exactly 280", async () => {
        const { key } = await server.workspace();
        const name = "n".repeat(64);
        const answer = await server.call("POST", "/v1/schemas", {
          key,
          body: { name, description: "d".repeat(280), schema: { columns: ["a"] } },
        });
        expect(answer.status, answer.text).toBe(201);
        expect(answer.body.name).toBe(name);
      });

      it("accepts exactly 50 columns and a template of exactly 50 entries", async () => {
        const { key } = await server.workspace();
        expect(
          (
            await server.call("POST", "/v1/schemas", {
              key,
              body: { name: "fifty", schema: { columns: columns(50) } },
            })
          ).status,
        ).toBe(201);
        expect(
          (
            await server.call("POST", "/v1/schemas", {
              key,
              body: { name: "fifty-t", schema: { template: template(50) } },
            })
          ).status,
        ).toBe(201);
      });

      const versionCases: [string, unknown, string][] = [
        ["a missing schema", { description: "x" }, "schema"],
        ["a schema of neither shape", { schema: { rows: ["a"] } }, "schema"],
        ["51 columns", { schema: tooManyColumns }, "schema.columns"],
        [
          "a description of 281 characters",
          { schema: { columns: ["a"] }, description: "d".repeat(281) },
          "description",
        ],
        ["a name, which a version cannot change", { schema: { columns: ["a"] }, name: "other" }, "name"],
      ];
      for (const [title, body, param] of versionCases) {
        it(`refuses a new version with ${title}, and publishes nothing`, async () => {
          const { key } = await server.workspace();
          const created = await save(key, { name: uniqueName(), schema: { columns: ["a"] } });
          const answer = await server.call("POST", `/v1/schemas/${created.id}/versions`, { key, body });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param).toBe(param);
          const read = await server.call("GET", `/v1/schemas/${created.id}`, { key });
          expect(read.body.latest_version).toBe(1);
        });
      }
    });

    describe("names", () => {
      it("answers 409 schema_name_taken for a name already used in the workspace", async () => {
        const { key } = await server.workspace();
        await save(key, { name: "orders", schema: { columns: ["a"] } });
        const again = await server.call("POST", "/v1/schemas", {
          key,
          body: { name: "orders", schema: { columns: ["b"] } },
        });
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe("schema_name_taken");
        expect(again.body.error.param).toBe("name");
        const list = await server.call("GET", "/v1/schemas", { key });
        expect(list.body.data).toHaveLength(1);
        expect(list.body.data[0].schema).toEqual({ columns: ["a"] });
      });

      it("lets exactly one of two concurrent creations of one name through", async () => {
        const { key } = await server.workspace();
        const answers = await Promise.all(
          [["a"], ["b"]].map((cols) =>
            server.call("POST", "/v1/schemas", { key, body: { name: "racing", schema: { columns: cols } } }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
        expect(answers.find((a) => a.status === 409)?.body.error.code).toBe("schema_name_taken");
        expect((await server.call("GET", "/v1/schemas", { key })).body.data).toHaveLength(1);
      });

      it("lets two workspaces use the same name", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        await save(mine.key, { name: "shared-name", schema: { columns: ["a"] } });
        await save(theirs.key, { name: "shared-name", schema: { columns: ["a"] } });
      });
    });

    describe("other workspaces and unknown ids", () => {
      it("answers 404 schema_not_found for an unknown id and for another workspace's schema", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const theirSchema = await save(theirs.key, { name: "private", schema: { columns: ["secret"] } });
        for (const id of ["sch_unknown", theirSchema.id]) {
          const read = await server.call("GET", `/v1/schemas/${id}`, { key: mine.key });
          expect(read.status).toBe(404);
          expect(read.body.error.code).toBe("schema_not_found");
          expect(read.text).not.toContain("secret");
          const publish = await server.call("POST", `/v1/schemas/${id}/versions`, {
            key: mine.key,
            body: { schema: { columns: ["hijacked"] } },
          });
          expect(publish.status).toBe(404);
          expect(publish.body.error.code).toBe("schema_not_found");
        }
        // The other workspace's schema is untouched and not listed here.
        const theirRead = await server.call("GET", `/v1/schemas/${theirSchema.id}`, { key: theirs.key });
        expect(theirRead.body.latest_version).toBe(1);
        expect((await server.call("GET", "/v1/schemas", { key: mine.key })).body.data).toEqual([]);
      });
    });

    describe("authentication", () => {
      const routes: [string, string, unknown][] = [
        ["GET", "/v1/schemas", undefined],
        ["POST", "/v1/schemas", { name: "x", schema: { columns: ["a"] } }],
        ["GET", "/v1/schemas/sch_any", undefined],
        ["POST", "/v1/schemas/sch_any/versions", { schema: { columns: ["a"] } }],
      ];
      for (const [method, path, body] of routes) {
        it(`answers 401 on ${method} ${path} without a key and with a revoked key`, async () => {
          const anonymous = await server.call(method, path, { body });
          expect(anonymous.status).toBe(401);
          expect(anonymous.body.error.code).toBe("unauthorized");

          const { key } = await server.workspace();
          const second = await server.call("POST", "/v1/keys", { key });
          await server.call("DELETE", `/v1/keys/${second.body.id}`, { key });
          const revoked = await server.call(method, path, { key: second.body.key, body });
          expect(revoked.status).toBe(401);
          expect(revoked.body.error.code).toBe("unauthorized");
          // Nothing was created by either attempt.
          expect((await server.call("GET", "/v1/schemas", { key })).body.data).toEqual([]);
        });
      }
    });
  });
}
