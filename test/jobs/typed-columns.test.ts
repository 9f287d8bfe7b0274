// Typed template columns end to end: the model is told the types, values that do not fit are converted
// or nulled, bad column types are 400s naming the column, and saved schemas keep the types.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf, rowsReply } from "../support/fake-model.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

const typedSchema = {
  template: {
    product: "The product's name",
    price: { description: "Its price in dollars", type: "number" },
    size: { description: "Its size", type: "string", enum: ["small", "large"], nullable: false },
  },
};

/** The model answers each price in a different form, and one size outside the enum. */
const answeredRows = [
  { product: "apple", price: "12", size: "small" },
  { product: "pear", price: "twelve", size: "large" },
  { product: "plum", price: 12, size: "huge" },
];

/** The schema of an answer item: the columns, then the two line keys. */
function answerSchemaOf(request: FakeModelRequest): any {
  return request.body.response_format.json_schema.schema.properties.rows.items;
}

let videoCount = 0;
const newVideo = () => `typed${String(++videoCount).padStart(6, "0")}`;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`typed template columns on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, { respond: () => rowsReply(answeredRows) });
    });
    afterAll(async () => {
      await server?.close();
    });

    const requestsAbout = (videoId: string) =>
      server.model.requests.filter((request) => messageOf(request, "user").includes(videoId));

    async function runJob(key: string, body: Record<string, unknown>) {
      const video = newVideo();
      server.addCaptions(video, 30, [`Apples, pears and plums for twelve dollars. ${video}`]);
      const submitted = await server.call("POST", "/v1", { key, body: { videos: [video], ...body } });
      expect(submitted.status, submitted.text).toBe(202);
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      expect(settled.status, JSON.stringify(settled)).toBe("done");
      return { video, rows: settled.results[0].rows.results };
    }

    it('turns a number column\'s "12", "twelve" and 12 into 12, null and 12', async () => {
      const { key } = await server.workspace();
      const { video, rows } = await runJob(key, { schema: typedSchema });
      expect(rows).toEqual([
        { product: "apple", price: 12, size: "small" },
        { product: "pear", price: null, size: "large" },
        { product: "plum", price: 12, size: null },
      ]);
      const [request] = requestsAbout(video);
      expect(answerSchemaOf(request!).properties).toEqual({
        product: { type: ["string", "number", "boolean", "null"] },
        price: { type: ["number", "null"] },
        size: { type: "string", enum: ["small", "large"] },
        first_line: { type: "integer" },
        last_line: { type: "integer" },
      });
      // The descriptions are said once, in the instructions.
      expect(messageOf(request!, "system")).toContain("- price (number): Its price in dollars");
    });

    it("answers 400 naming the column for an unknown type", async () => {
      const { key } = await server.workspace();
      const answer = await server.call("POST", "/v1", {
        key,
        body: {
          videos: [newVideo()],
          schema: { template: { price: { description: "The price", type: "money" } } },
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        code: "invalid_request",
        param: "schema.template.price.type",
      });
      expect(answer.body.error.message).toContain("schema.template.price.type");
      expect(answer.body.error.message).toContain("number");
    });

    it("answers 400 naming the column for a malformed column or an enum value of another type", async () => {
      const { key } = await server.workspace();
      const malformed = await server.call("POST", "/v1", {
        key,
        body: { videos: [newVideo()], schema: { template: { price: { type: "number" } } } },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatchObject({ code: "invalid_request", param: "schema.template.price" });
      expect(malformed.body.error.message).toContain("description");

      const badEnum = await server.call("POST", "/v1/schemas", {
        key,
        body: {
          name: "bad-enum",
          schema: { template: { rating: { description: "Stars", type: "integer", enum: [1, 2, 2.5] } } },
        },
      });
      expect(badEnum.status).toBe(400);
      expect(badEnum.body.error).toMatchObject({
        code: "invalid_request",
        param: "schema.template.rating.enum[2]",
      });
      expect(badEnum.body.error.message).toContain('"rating"');
    });

    it("keeps the types in a saved schema's versions and runs jobs with them", async () => {
      const { key } = await server.workspace();
      const created = await server.call("POST", "/v1/schemas", {
        key,
        body: { name: "typed-products", schema: { template: { product: "The product's name" } } },
      });
      expect(created.status, created.text).toBe(201);
      const published = await server.call("POST", `/v1/schemas/${created.body.id}/versions`, {
        key,
        body: { schema: typedSchema },
      });
      expect(published.status, published.text).toBe(201);

      const detail = await server.call("GET", `/v1/schemas/${created.body.id}`, { key });
      expect(detail.body.versions.map((version: any) => version.schema)).toEqual([
        { template: { product: "The product's name" } },
        typedSchema,
      ]);

      const { rows } = await runJob(key, { schema_id: created.body.id, schema_version: 2 });
      expect(rows.map((row: any) => row.price)).toEqual([12, null, 12]);
    });
  });
}
