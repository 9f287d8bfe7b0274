// The bare framework: a hello-world Fastify server, the yardstick the real server's speed is divided by.
import Fastify from "fastify";

const port = Number(process.argv[2] ?? 0);
const app = Fastify();
app.get("/", async () => ({ hello: "world" }));
// The yardstick for submissions: a JSON body parsed, a small JSON answer.
app.post("/", async (request, reply) =>
  reply.code(202).send({ received: Array.isArray((request.body as { videos?: unknown }).videos) }),
);
await app.listen({ host: "127.0.0.1", port });
const stop = () => app.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
