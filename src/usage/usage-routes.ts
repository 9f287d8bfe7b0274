// `/v1/usage`: credits, cycle, plan and job figures; PATCH sets the `hard_cap` ceiling.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { callerOf, contextOf } from "../access/access-control.js";
import type { RequestContext } from "../http/request-context.js";
import { sendJsonAnswer } from "../http/json-answers.js";
import { errorAnswers, refTo } from "../http/common-schemas.js";
import { Usage } from "./usage-schemas.js";

import type { UsageService } from "./usage-report.js";

const maxHardCap = 1_000_000_000_000;

const UsagePatch = Type.Object(
  {
    hard_cap: Type.Union([Type.Integer({ minimum: 0, maximum: maxHardCap }), Type.Null()], {
      "x-error-message": `must be an integer from 0 to ${maxHardCap}, or null to remove the ceiling.`,
    }),
  },
  { additionalProperties: false },
);

export interface UsageRouteOptions {
  /** The usage object, answered at once when remembered (see remembered-reads.ts). */
  readonly usage: { get(context: RequestContext, now?: number): MaybePromise<Usage> };
  readonly usageReport: UsageService;
}

export const usageRoutes: FastifyPluginAsyncTypebox<UsageRouteOptions> = async (
  app,
  { usage, usageReport },
) => {
  app.addSchema(Usage);

  app.get(
    "/v1/usage",
    {
      schema: {
        operationId: "getUsage",
        summary: "Read usage",
        tags: ["Usage"],
        response: { 200: refTo(Usage, { description: "The workspace's usage." }), ...errorAnswers() },
      },
    },
    (request, reply) =>
      whenReady(usage.get(contextOf(request), Date.now()), (answer) => {
        sendJsonAnswer(reply, answer);
      }),
  );

  app.patch(
    "/v1/usage",
    {
      schema: {
        operationId: "updateUsage",
        summary: "Set the hard cap",
        description:
          "`hard_cap` caps the credits used in a cycle; submissions past it answer 402 `hard_cap_reached`.",
        tags: ["Usage"],
        body: UsagePatch,
        response: {
          200: refTo(Usage, { description: "The usage, with the new `hard_cap`." }),
          ...errorAnswers({ body: true }),
        },
      },
    },
    async (request) => usageReport.setHardCap(callerOf(request).workspaceId, request.body.hard_cap),
  );
};
