// `GET /v1/videos?from=&limit=`: the videos of a playlist or channel, listed without creating anything,
// for a client to submit what it wants of them.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { callerOf } from "../access/access-control.js";
import { ApiError } from "../http/api-errors.js";
import { errorAnswers, refTo } from "../http/common-schemas.js";
import { sendJsonAnswer } from "../http/json-answers.js";
import { ListingQueueFull } from "./listing-failures.js";
import { listingComponents, VideoListing } from "./listing-schemas.js";
import type { VideoListings } from "./video-listings.js";

export const maxListingLimit = 1000;

const ListingQuery = Type.Object(
  {
    from: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        "A YouTube playlist (`https://www.youtube.com/playlist?list=...`, or a watch URL with `list=`) or channel (`/@handle`, `/channel/UC...`, `/c/name`, `/user/name`, optionally with its `/videos`, `/shorts` or `/streams` tab; without one, the Videos tab), or the https:// page of a playlist on another platform that yt-dlp reads.",
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: maxListingLimit,
      default: 100,
      description: "The most videos to list, from the start of the listing.",
      "x-error-message": `must be an integer from 1 to ${maxListingLimit}.`,
    }),
  },
  { additionalProperties: false },
);

export interface ListingRouteOptions {
  readonly listings: Pick<VideoListings, "list">;
}

/** Stops the listing when the client goes away before its answer is written. */
class GoneAway extends ApiError {
  constructor() {
    super("invalid_request", "The request was closed before the listing was ready.");
  }
}

export const listingRoutes: FastifyPluginAsyncTypebox<ListingRouteOptions> = async (app, options) => {
  for (const schema of listingComponents) app.addSchema(schema);

  app.get(
    "/v1/videos",
    {
      schema: {
        operationId: "listVideos",
        summary: "List a playlist's or channel's videos",
        description:
          "Reads the listing from the platform (through yt-dlp) and answers its first `limit` videos; creates nothing and costs no credits. Submit what you want of it with `POST /v1`. 404 `listing_not_found` when there is nothing there (missing, private, or no such tab); 503 `listing_unavailable` when the server has no yt-dlp; 503 `platform_unavailable` (with `Retry-After`) when the platform refused or did not answer. A process runs a few listings at once, shared in turn between the workspaces that wait for one; 429 `rate_limited` (with `Retry-After`) when the workspace already has as many listings waiting on the server as it may (`VIDROWS_LISTING_QUEUE`).",
        tags: ["Videos"],
        querystring: ListingQuery,
        response: {
          200: refTo(VideoListing, { description: "The listing's first videos." }),
          ...errorAnswers({ codes: ["listing_not_found", "listing_unavailable", "platform_unavailable"] }),
        },
      },
    },
    async (request, reply) => {
      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort(new GoneAway());
      };
      reply.raw.once("close", onClose);
      const workspace = callerOf(request).workspaceId;
      try {
        const listing = await options.listings.list(workspace, request.query.from, request.query.limit, {
          signal: controller.signal,
          onQueued: (waiting) =>
            request.log.debug({ workspace, waiting }, "listing waits for a slot behind other listings"),
        });
        sendJsonAnswer(reply, listing);
      } catch (error) {
        if (error instanceof ListingQueueFull) reply.header("retry-after", error.retryAfterSeconds);
        if (!(error instanceof GoneAway)) throw error;
        request.log.debug({ workspace }, "listing stopped: the client went away");
        // Nobody is left to answer: the connection is let go rather than kept for an answer no one reads.
        reply.hijack();
        reply.raw.socket?.destroy();
      } finally {
        reply.raw.off("close", onClose);
      }
    },
  );
};
