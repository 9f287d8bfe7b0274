// Scalar's browser script, as @scalar/fastify-api-reference carries it, for /docs to serve itself.
import Fastify from "fastify";

/**
 * zod (inside Scalar) reads its settings from `globalThis` when it loads. Without compiling validators
 * it never probes whether it may run `Function("")`, which the reference's CSP refuses and the browser
 * would report as a violation.
 */
const noCompiledValidators = "globalThis.__zod_globalConfig = { jitless: true };";

/**
 * The script the package's plugin serves at `<prefix>/js/scalar.js`, led by zod's setting. The plugin
 * keeps the script to itself, so it is registered on a Fastify instance of its own, asked once, and
 * closed; the package is imported only here, when /docs is first asked for its script.
 */
export async function loadScalarScript(): Promise<string> {
  const { default: scalarApiReference } = await import("@scalar/fastify-api-reference");
  const source = Fastify({ logger: false });
  try {
    await source.register(scalarApiReference, {
      routePrefix: "/reference",
      configuration: { url: "/v1/openapi.json" },
    });
    const answer = await source.inject({ method: "GET", url: "/reference/js/scalar.js" });
    if (answer.statusCode !== 200) throw new Error(`Scalar's script answered ${answer.statusCode}`);
    return `${noCompiledValidators}\n${answer.body}`;
  } finally {
    await source.close();
  }
}
