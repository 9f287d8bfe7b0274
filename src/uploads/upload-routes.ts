// `/v1/uploads`: take an audio or video file as the request body, list the workspace's pending uploads,
// remove one.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Readable } from "node:stream";
import { Type } from "typebox";
import { callerOf } from "../access/access-control.js";
import { ApiError } from "../http/api-errors.js";
import { checkBodyEncoding } from "../http/body-encoding.js";
import { errorAnswers, refTo } from "../http/common-schemas.js";
import { exemptFromRequestTimeout } from "../http/body-deadlines.js";
import { Upload, UploadList, uploadComponents } from "./upload-schemas.js";
import type { Uploads } from "./uploads.js";

/** The media types an upload may be declared as; ffprobe decides what the bytes really are. */
const uploadTypes = /^(?:audio|video)\/[a-z0-9][a-z0-9!#$&^_.+-]*$|^application\/octet-stream$/;

function mediaTypeOf(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

const UploadIdParams = Type.Object({ upload_id: Type.String({ maxLength: 100 }) });

/** The answers of the upload route, with 413 and 415 said as they apply to a file. */
function createAnswers() {
  const answers = errorAnswers({ body: true, codes: ["plan_limit", "insufficient_storage"] });
  return {
    ...answers,
    413: { ...answers[413], description: "The file is over the plan's upload limit: `payload_too_large`." },
    415: {
      ...answers[415],
      description:
        "The body is not declared as audio/*, video/* or application/octet-stream, is compressed, or is not audio or video ffmpeg reads: `unsupported_media_type`.",
    },
  };
}

export interface UploadRouteOptions {
  readonly uploads: Uploads;
}

export const uploadRoutes: FastifyPluginAsyncTypebox<UploadRouteOptions> = async (app, { uploads }) => {
  for (const schema of uploadComponents) app.addSchema(schema);
  // In this plugin only: every body that is not JSON reaches the route as it arrives, unread, for the
  // route to refuse by its type or stream to the store.
  app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

  app.post(
    "/v1/uploads",
    {
      schema: {
        operationId: "createUpload",
        summary: "Upload an audio or video file",
        description:
          "The request body is the file itself, sent as `audio/*`, `video/*` or `application/octet-stream`. It is measured with ffprobe and ffmpeg and kept for `VIDROWS_UPLOAD_RETENTION_HOURS` unless deleted. 400 (`param: body`) for a file without an audio track or longer than the plan's longest video.",
        tags: ["Uploads"],
        consumes: ["audio/*", "video/*", "application/octet-stream"],
        body: Type.Unsafe<unknown>({ type: "string", format: "binary", description: "The file's bytes." }),
        response: { 201: refTo(Upload, { description: "Stored and measured." }), ...createAnswers() },
      },
      // The schema above documents the body; there is nothing to validate in a stream of bytes.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const caller = callerOf(request);
      // Whatever the answer, the rest of an unread body is not waited for.
      reply.header("connection", "close");
      const type = mediaTypeOf(request.headers["content-type"]);
      if (!uploadTypes.test(type)) {
        throw new ApiError(
          "unsupported_media_type",
          `An upload's body is the file itself, sent with \`content-type\` audio/*, video/* or application/octet-stream; got ${type === "" ? "none" : `\`${type}\``}.`,
        );
      }
      checkBodyEncoding({ "content-encoding": request.headers["content-encoding"] });
      const body = request.body;
      if (!(body instanceof Readable)) {
        throw new ApiError(
          "invalid_request",
          "The request body is empty; send the file as the body.",
          "body",
        );
      }
      exemptFromRequestTimeout(request.raw);
      const length = request.headers["content-length"];
      const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
      const created = await uploads.create(caller.workspaceId, caller.plan, body, declared);
      return reply.code(201).send(created);
    },
  );

  app.get(
    "/v1/uploads",
    {
      schema: {
        operationId: "listUploads",
        summary: "List pending uploads",
        description:
          "The workspace's uploads that no job has taken yet and that have not expired, newest first.",
        tags: ["Uploads"],
        response: { 200: refTo(UploadList, { description: "The pending uploads." }), ...errorAnswers() },
      },
    },
    async (request) => ({ data: await uploads.list(callerOf(request).workspaceId) }),
  );

  app.delete(
    "/v1/uploads/:upload_id",
    {
      schema: {
        operationId: "deleteUpload",
        summary: "Delete a pending upload",
        description: "Removes the upload and its file at once.",
        tags: ["Uploads"],
        params: UploadIdParams,
        response: {
          204: Type.Null({ description: "Deleted; no body." }),
          ...errorAnswers({ body: true, codes: ["upload_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      await uploads.remove(callerOf(request).workspaceId, request.params.upload_id);
      return reply.code(204).send(null);
    },
  );
};
