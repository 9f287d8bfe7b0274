// The bare framework: a Fastify server with nothing of vidrows in it, the yardstick the real server's
// speed is divided by.
import Fastify, { type FastifyReply } from "fastify";

const port = Number(process.argv[2] ?? 0);
const app = Fastify();
app.get("/", async () => ({ hello: "world" }));
// The yardstick for submissions: a JSON body parsed, a small JSON answer.
app.post("/", async (request, reply) =>
  reply.code(202).send({ received: Array.isArray((request.body as { videos?: unknown }).videos) }),
);

/** An answer of the real server, as recorded-answer.ts took it: what `/recorded` sends back. */
interface RecordedAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}
let recorded: RecordedAnswer = { statusCode: 200, headers: {}, body: "" };
// The yardstick per endpoint: the same bytes the endpoint answered (status, headers, body), so that the
// ratio counts only what vidrows does to find them, not the size of what it sends. A POST's JSON body
// is parsed first, as the endpoint parses it. The answer is given once, before the load, on this route.
app.put("/recorded", { bodyLimit: 16 * 1024 * 1024 }, async (request) => {
  recorded = request.body as RecordedAnswer;
  return { recorded: true };
});
const sendRecorded = async (_request: unknown, reply: FastifyReply) =>
  reply.code(recorded.statusCode).headers(recorded.headers).send(recorded.body);
app.get("/recorded", sendRecorded);
app.post("/recorded", sendRecorded);

await app.listen({ host: "127.0.0.1", port });
const stop = () => app.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
