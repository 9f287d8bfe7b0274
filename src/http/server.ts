// The HTTP server: Fastify set up with our validation, error envelope, access control and routes.
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { HttpTimeouts } from "../config.js";
import { ErrorEnvelope, Pagination } from "./common-schemas.js";
import { swaggerOptions } from "./openapi-document.js";
import { openApiRoutes } from "./openapi-route.js";
import { apiReference } from "./api-reference.js";
import { answerClientError } from "./client-errors.js";
import { handleError, sendError, toApiError } from "./error-handler.js";
import { checkBodyEncoding } from "./body-encoding.js";
import { enforceBodyDeadline } from "./body-deadlines.js";
import { jsonBodyText, parseJsonBody } from "./json-body.js";
import { findNul, nulError, parametersMayHoldNul } from "./nul-characters.js";
import { httpRequestDuration, httpRequests } from "../metrics.js";
import { requestIdFor } from "./request-ids.js";
import { refuseUnknownQueryParameters } from "./unknown-query-parameters.js";
import { trackRoutes } from "./unknown-routes.js";
import { validatorCompiler } from "./validators.js";

export interface HttpServerOptions {
  /** The process's logger (see logger.ts); every request logs through a child of it. */
  readonly log: FastifyBaseLogger;
  readonly logLevel: string;
  /** Count every request and its duration in the process's metrics (only when they are served). */
  readonly countRequests?: boolean;
  readonly trustProxy: boolean;
  readonly timeouts: HttpTimeouts;
  /**
   * Who is calling and whether they may go on, before any route runs: throws (or rejects with) the
   * refusal. Returns a promise only when it must wait, so most requests pass without one.
   */
  readonly checkAccess: (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;
  /** The fields `checkAccess` sets on every request, with their initial values (Fastify declares them once). */
  readonly requestFields: Readonly<Record<string, unknown>>;
  /** Registers the features' routes (the composition root knows them; this module does not). */
  readonly registerRoutes: (app: FastifyInstance) => Promise<void>;
}

export async function buildHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const checkEveryMs = Math.min(1000, options.timeouts.headersMs);
  const app = Fastify({
    // Fastify's own logger is off: with one, it also watches every response's end to time it (about
    // 1.5-2 µs of CPU a request, most of a remembered read's own work), even with request logging off.
    // Requests log through a child of the process's logger instead (the same lines, with `reqId`);
    // `listenTextResolver` in app.ts writes Fastify's "Server listening at" lines.
    logger: false,
    childLoggerFactory: (_fastifyLogger, bindings, childOptions) => options.log.child(bindings, childOptions),
    // Fastify's two log lines per request would cost more than most requests; one access line at
    // debug level (below) says the same, and errors are logged at error level regardless.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdFor,
    trustProxy: options.trustProxy,
    bodyLimit: 1024 * 1024,
    // A client that sends its headers or its body slowly, or not at all, is cut off (400, then the
    // socket closes), so that one host cannot hold the server's sockets. Fastify's defaults are 0
    // (never). Node times the headers and looks for late ones every `connectionsCheckingInterval`
    // (30 s by default), brought down to match short limits; the body's deadline is kept by
    // body-deadlines.ts (below), since an upload's route must be able to lift it and Node's cannot be
    // lifted for one request.
    requestTimeout: 0,
    keepAliveTimeout: options.timeouts.keepAliveMs,
    http: {
      headersTimeout: options.timeouts.headersMs,
      connectionsCheckingInterval: checkEveryMs,
    },
    clientErrorHandler: answerClientError,
    // Requests are validated by our own compiler (validators.ts) in every plugin. Given as the factory,
    // not with setValidatorCompiler, because a plugin that adds a named schema (app.addSchema) would
    // otherwise build Fastify's default validator for its routes. Request schemas refer to no named
    // schema, so the compiler needs none of them.
    schemaController: { compilersFactory: { buildValidator: () => validatorCompiler as never } },
    // Malformed URLs (bad percent-encoding) get the same envelope and request id as every other bad
    // request; they fail before the onRequest hooks that would otherwise set the header.
    frameworkErrors: (error, request, reply) =>
      sendError(toApiError(error), request, reply.header("x-request-id", request.id)),
  }).withTypeProvider<TypeBoxTypeProvider>();

  enforceBodyDeadline(app.server, options.timeouts.requestMs, checkEveryMs, answerClientError);

  app.setErrorHandler(handleError);
  app.setNotFoundHandler(trackRoutes(app));
  refuseUnknownQueryParameters(app);
  for (const [field, initial] of Object.entries(options.requestFields)) app.decorateRequest(field, initial);

  // JSON is the only body the API reads, as UTF-8 and uncompressed; everything else answers 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    try {
      checkBodyEncoding(request.headers);
      done(null, parseJsonBody(jsonBodyText(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  if (["debug", "trace"].includes(options.logLevel)) {
    app.addHook("onResponse", async (request, reply) => {
      request.log.debug(
        {
          method: request.method,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
        },
        "request completed",
      );
    });
  }
  if (options.countRequests) {
    app.addHook("onResponse", (request, reply, done) => {
      // The route's pattern (`/v1/:job_id`), never the path: one series per route, not per job.
      const labels = {
        route: request.routeOptions.url ?? "unmatched",
        method: request.method,
        code: String(reply.statusCode),
      };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }
  // One hook per stage, each written with a callback rather than as an async function: an async hook
  // costs a promise and a turn of the microtask queue on every request, and most requests pass both
  // stages without waiting for anything.
  const { checkAccess } = options;
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    let checking: void | Promise<void>;
    try {
      checking = checkAccess(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (checking) checking.then(() => done(), done);
    else done();
  });
  app.addHook("preValidation", (request, _reply, done) => {
    // A NUL in a path id or a query value is refused before any route or database sees it.
    const inPath = parametersMayHoldNul(request.params) ? findNul(request.params) : null;
    if (inPath !== null) return done(nulError(inPath, "path"));
    const inQuery = parametersMayHoldNul(request.query) ? findNul(request.query) : null;
    if (inQuery !== null) return done(nulError(inQuery, "query"));
    // A route whose fields are all optional accepts a request with no body at all.
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    done();
  });

  // The schemas every feature's answers share, named in the OpenAPI document (features add their own).
  app.addSchema(ErrorEnvelope);
  app.addSchema(Pagination);
  await app.register(swagger, swaggerOptions);

  await app.register(openApiRoutes);
  await app.register(apiReference);
  await options.registerRoutes(app);

  return app;
}
