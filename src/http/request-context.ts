// What the routes and services of one request know of it: whose workspace, on which plan, and as of when.
import type { Plan } from "../domain/plans.js";
import type { ReadStamp } from "../store/stamped-cache.js";

/**
 * One object, made by the access check, that the routes hand to the services. `readStamp` is what a
 * remembered answer is checked against (see `ReadStamp`, store/stamped-cache.ts); only the seam of
 * remembered reads (app/remembered-reads.ts) reads it. Undefined when remembering is off
 * (VIDROWS_REMEMBER_ANSWERS=0): every read computes.
 */
export interface RequestContext {
  readonly workspaceId: string;
  readonly plan: Plan;
  readonly readStamp: ReadStamp | undefined;
}

/** The part of the context a read's own computation needs: whose data it reads. */
export type WorkspaceScope = Pick<RequestContext, "workspaceId">;
