// Hostile input at every endpoint: only 4xx envelopes (or the normal answer to valid input), never a 5xx,
// and the server keeps answering.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import {
  acceptingJobs,
  type Endpoint,
  endpoints,
  endpointTitle,
  livePath,
  pathWithId,
} from "../support/endpoints.js";
import { type RawAnswer, rawRequest } from "../support/raw-http.js";
import { type ApiResponse, startTestServer, type TestServer } from "../support/test-server.js";

/** A 4xx in the envelope, or the endpoint's own success; never a 5xx. */
function expectHandled(answer: ApiResponse, endpoint: Endpoint | undefined, what: string): void {
  const context = `${what} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.headers.get("x-request-id"), context).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  if (answer.status >= 400) {
    expect(Object.keys(answer.body ?? {}), context).toEqual(["error"]);
    expect(typeof answer.body.error.code, context).toBe("string");
    expect(answer.body.error.code, context).not.toBe("internal_error");
    expect(answer.body.error.request_id, context).toBe(answer.headers.get("x-request-id"));
  } else if (endpoint) {
    expect(answer.status, context).toBe(endpoint.successStatus);
  }
}

/** Every place in a body where a value sits, as a path of keys and indexes. */
function valuePaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths.push(...valuePaths(item, [...at, i]));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) paths.push(...valuePaths(v, [...at, k]));
  }
  return paths;
}

/** A deep copy of `body` with the value at `path` replaced. */
function replaced(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

const wrongTypes: unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -0,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  "5",
  "null",
  [],
  [1, "a", null],
  {},
  { a: 1 },
  null,
  true,
  false,
];

const nastyStrings = [
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u001f\u007f",
  "\u001b[31mred\u001b[0m",
  "line\r\nbreak",
  "\ud800",
  "a\udfffb",
  "\ufeff\u200b\u202e",
  "😀".repeat(40),
  "'; drop table api_keys; --",
  // the text of a log-injection attempt, on purpose.
  "${jndi:ldap://x}",
];

const malformedJson = [
  "{",
  "}",
  "[",
  '{"a":',
  '{"a" 1}',
  "{'a': 1}",
  '{"a": undefined}',
  '{"a": NaN}',
  '{"a": 01}',
  '{"a": 1,}',
  "[1,]",
  '{"a": "\\x41"}',
  '{"a": "unterminated',
  '"just a string"',
  "42",
  "true",
  "null",
  "\u0000",
  '{"a":1}{"b":2}',
  "{}garbage",
];

function deeplyNested(levels: number, kind: "array" | "object"): string {
  return kind === "array"
    ? "[".repeat(levels) + "]".repeat(levels)
    : `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

const oddQueries = [
  "?limit=1&limit=2",
  "?=",
  "?=1",
  "?%00=1",
  "?a=%00",
  "?&&&",
  "?a[b]=1",
  "?a[]=1&a[]=2",
  "?__proto__=1",
  "?__proto__[admin]=1",
  "?constructor[prototype][admin]=1",
  "?%zz=1",
  "?a=%",
  "?a=%E0%A4%A",
  "?ключ=значение",
  `?${"a".repeat(6000)}=1`,
  `?${"a=1&".repeat(1500)}`,
  `?q=${"x".repeat(12_000)}`,
];

const oddIds = [
  "a".repeat(100),
  "a".repeat(101),
  "a".repeat(5000),
  "%00",
  "a%00b",
  "..%2f..%2fusage",
  "%2e%2e",
  "..%2F",
  "%2f",
  "%5c..%5c",
  "ключ",
  "%F0%9F%98%80",
  "%20",
  "key_%27%3B%20drop%20table%20api_keys%3B--",
  "%ff",
  "%",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "0",
  "-1",
];

function expectRawEnvelope(answer: RawAnswer, what: string): void {
  expect(answer.status, what).toBeGreaterThanOrEqual(400);
  expect(answer.status, what).toBeLessThan(500);
  const body = JSON.parse(answer.body);
  expect(Object.keys(body), what).toEqual(["error"]);
  expect(body.error.code, what).toBe("invalid_request");
  expect(body.error.request_id, what).toMatch(/^req_/);
  expect(answer.headers["x-request-id"], what).toBe(body.error.request_id);
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Hostile input on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
    });
    afterAll(async () => {
      await server?.close();
    });
    // Whatever a test threw at it, the server still serves an ordinary request afterwards.
    afterEach(async () => {
      const { key } = await server.workspace("scale");
      const answer = await server.call("GET", "/v1/usage", { key });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.plan.id).toBe("scale");
    });

    /** A workspace on the plan with the most room, so allowances rarely get in the way of the input under test. */
    const workspaceKey = async () => (await server.workspace("scale")).key;

    const send = (endpoint: Endpoint, path: string, key: string, rawBody: string, headers = {}) =>
      server.call(endpoint.method, path, {
        key,
        rawBody,
        headers: { "content-type": "application/json", ...headers },
      });

    for (const endpoint of endpoints) {
      describe(endpointTitle(endpoint), () => {
        const readsBody = endpoint.exampleBody !== undefined;
        // Cases that cannot apply to an endpoint are not defined for it at all.
        const bodyIt = readsBody ? it : () => {};
        const idIt = endpoint.idOf !== undefined ? it : () => {};

        (readsBody || endpoint.method === "DELETE" ? it : () => {})(
          "answers malformed JSON with 400",
          async () => {
            const key = await workspaceKey();
            const path = await livePath(server, key, endpoint);
            for (const rawBody of malformedJson) {
              const answer = await send(endpoint, path, key, rawBody);
              expectHandled(answer, endpoint, JSON.stringify(rawBody));
              // A body that parses but is not an object is a wrong type, not malformed JSON: also a 400.
              if (readsBody) expect(answer.status, rawBody).toBe(400);
            }
          },
        );

        bodyIt("answers a wrong type in every field, and as the whole body", async () => {
          const key = await workspaceKey();
          const path = await livePath(server, key, endpoint);
          const example = endpoint.exampleBody?.() ?? {};
          for (const value of wrongTypes) {
            expectHandled(await send(endpoint, path, key, JSON.stringify(value)), endpoint, `body ${value}`);
          }
          for (const at of valuePaths(example)) {
            for (const value of wrongTypes) {
              const body = replaced(endpoint.exampleBody?.() ?? {}, at, value);
              expectHandled(
                await send(endpoint, path, key, JSON.stringify(body)),
                endpoint,
                JSON.stringify(body),
              );
            }
          }
        });

        bodyIt("answers a 900 KB string in every field, and as a field name, with 400", async () => {
          const key = await workspaceKey();
          const path = await livePath(server, key, endpoint);
          const huge = "x".repeat(900 * 1024);
          const example = endpoint.exampleBody?.() ?? {};
          for (const at of valuePaths(example)) {
            const body = replaced(endpoint.exampleBody?.() ?? {}, at, huge);
            const answer = await send(endpoint, path, key, JSON.stringify(body));
            expectHandled(answer, endpoint, `900 KB at ${at.join(".")}`);
            expect(answer.status).toBe(400);
          }
          const asName = await send(endpoint, path, key, JSON.stringify({ ...example, [huge]: 1 }));
          expectHandled(asName, endpoint, "900 KB field name");
          expect(asName.status).toBe(400);
        });

        bodyIt("answers control characters, NUL bytes and lone surrogates in strings", async () => {
          const key = await workspaceKey();
          const path = await livePath(server, key, endpoint);
          const example = endpoint.exampleBody?.() ?? {};
          const stringPaths = valuePaths(example).filter((at) => {
            let node: unknown = example;
            for (const step of at) node = (node as Record<string | number, unknown>)[step];
            return typeof node === "string";
          });
          for (const at of stringPaths) {
            for (const nasty of nastyStrings) {
              const body = replaced(endpoint.exampleBody?.() ?? {}, at, nasty);
              // JSON.stringify writes lone surrogates as \u escapes, as a hostile client would.
              const answer = await send(endpoint, path, key, JSON.stringify(body));
              expectHandled(answer, endpoint, `${JSON.stringify(nasty)} at ${at.join(".")}`);
            }
          }
          // The same strings as field names, and inside a template's column names.
          for (const nasty of nastyStrings) {
            const answer = await send(endpoint, path, key, JSON.stringify({ ...example, [nasty]: "x" }));
            expectHandled(answer, endpoint, `${JSON.stringify(nasty)} as a field name`);
            expect(answer.status).toBe(400);
            if ("schema" in example) {
              const body = { ...endpoint.exampleBody?.(), schema: { template: { [nasty]: nasty } } };
              expectHandled(
                await send(endpoint, path, key, JSON.stringify(body)),
                endpoint,
                `${JSON.stringify(nasty)} column`,
              );
            }
          }
        });

        bodyIt(
          "answers bytes that are not UTF-8 with 400, and a byte-order mark with a 4xx or its normal answer",
          async () => {
            const key = await workspaceKey();
            const path = await livePath(server, key, endpoint);
            const bodies = [
              Buffer.from([
                0x7b, 0x22, 0x6c, 0x61, 0x62, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d,
              ]),
              Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]),
              Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
            ];
            for (const body of bodies) {
              const response = await fetch(server.url + path, {
                method: endpoint.method,
                headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                body,
              });
              const text = await response.text();
              expectHandled(
                {
                  status: response.status,
                  headers: response.headers,
                  body: JSON.parse(text || "null"),
                  text,
                },
                endpoint,
                body.toString("hex"),
              );
              // A byte-order mark before `{}` is valid UTF-8, read as whitespace.
              if (body[0] !== 0xef) expect(response.status, body.toString("hex")).toBe(400);
            }
          },
        );

        bodyIt("answers 10,000 and 100,000 levels of nesting with a 4xx", async () => {
          const key = await workspaceKey();
          const path = await livePath(server, key, endpoint);
          const example = endpoint.exampleBody?.() ?? {};
          for (const levels of [10_000, 100_000]) {
            for (const kind of ["array", "object"] as const) {
              const nested = deeplyNested(levels, kind);
              const what = `${levels} levels of ${kind}`;
              const whole = await send(endpoint, path, key, nested);
              expectHandled(whole, endpoint, `${what} as the body`);
              expect(whole.status).toBe(400);
              // Nested inside every field of a valid body, and under an unknown one.
              const fields = [...valuePaths(example).map((at) => at.join(".")), "unknown"];
              for (const field of fields) {
                const marker = "__NESTED__";
                const at = field.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
                const body = JSON.stringify(replaced(endpoint.exampleBody?.() ?? {}, at, marker));
                const answer = await send(endpoint, path, key, body.replace(`"${marker}"`, nested));
                expectHandled(answer, endpoint, `${what} at ${field}`);
                expect(answer.status).toBeGreaterThanOrEqual(400);
              }
            }
          }
        });

        it("answers odd query strings with a 4xx or its normal answer", async () => {
          const key = await workspaceKey();
          for (const query of oddQueries) {
            const path = await livePath(server, key, endpoint);
            const body = endpoint.exampleBody?.();
            const answer = await server.call(endpoint.method, path + query, { key, body });
            expectHandled(answer, endpoint, query.slice(0, 80));
          }
          // Every odd query above names a parameter no endpoint has, except the empty ones.
          const path = await livePath(server, key, endpoint);
          const answer = await server.call(endpoint.method, `${path}?limit=1&limit=2`, {
            key,
            body: endpoint.exampleBody?.(),
          });
          expect(answer.status).toBe(400);
          expect(answer.body.error.param).toBe("limit");
        });

        idIt("answers odd ids in the path with a 4xx", async () => {
          const key = await workspaceKey();
          for (const id of oddIds) {
            const path = pathWithId(endpoint, "ID").replace("ID", id);
            const answer = await server.call(endpoint.method, path, { key, body: endpoint.exampleBody?.() });
            expectHandled(answer, endpoint, `id ${id.slice(0, 80)}`);
            expect(answer.status, `id ${id.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
          }
          // Ids are looked up as they are, so an escape never reaches another resource.
          const other = await livePath(server, key, endpoint);
          const sneaky = `${other.split("/").slice(0, 3).join("/")}/..%2f${other.split("/")[3]}`;
          const answer = await server.call(endpoint.method, sneaky, { key, body: endpoint.exampleBody?.() });
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        });
      });
    }

    describe("requests Node's HTTP parser refuses", () => {
      const requests: [string, string | Buffer][] = [
        [
          "a control character in x-request-id",
          "GET /v1/usage HTTP/1.1\r\nHost: x\r\nx-request-id: a\u0001b\r\n\r\n",
        ],
        ["a NUL in a header", "GET /v1/usage HTTP/1.1\r\nHost: x\r\nx-api-key: vr_live_\u0000\r\n\r\n"],
        ["headers over 16 KB", `GET /v1/usage HTTP/1.1\r\nHost: x\r\nx-pad: ${"a".repeat(20_000)}\r\n\r\n`],
        ["a URL over 16 KB", `GET /v1/usage?${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
        ["a garbage request line", "HELLO THERE\r\n\r\n"],
        ["a space in the path", "GET /v1/us age HTTP/1.1\r\nHost: x\r\n\r\n"],
        ["a bad content-length", "POST /v1/keys HTTP/1.1\r\nHost: x\r\ncontent-length: -5\r\n\r\n"],
        [
          "two content-lengths",
          "POST /v1/keys HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}",
        ],
        [
          "a bad chunk size",
          "POST /v1/keys HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\ncontent-type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        ],
      ];
      for (const [title, request] of requests) {
        it(`answers ${title} with a 400 envelope carrying a fresh request id`, async () => {
          expectRawEnvelope(await rawRequest(server.url, request), title);
        });
      }
    });

    it("survives a client that hangs up in the middle of a body", async () => {
      const { key } = await server.workspace();
      const answer = await rawRequest(
        server.url,
        `POST /v1/keys HTTP/1.1\r\nHost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 50\r\n\r\n{"la`,
        { hangUp: true },
      );
      // Nobody is left to read an answer; if one was written anyway, it is not a 5xx.
      if (answer.status) expect(answer.status).toBeLessThan(500);
    });

    it("refuses a video id or URL with whitespace around or inside it, naming the element, and creates no job", async () => {
      const { key } = await server.workspace("scale");
      const padded: [string, string][] = [
        [" dQw4w9WgXcQ", "a space at position 1"],
        ["dQw4w9WgXcQ ", "a space at position 12"],
        ["\tdQw4w9WgXcQ", "a tab at position 1"],
        ["dQw4w9WgXcQ\n", "a line break (LF) at position 12"],
        ["dQw4w9WgXcQ\r\n", "a line break (CR) at position 12"],
        [" https://youtu.be/dQw4w9WgXcQ", "a space at position 1"],
        ["https://www.youtube.com/watch?v=dQw4w9WgXcQ\t", "a tab at position 44"],
        ["https://youtu.be/dQw4w\n9WgXcQ", "a line break (LF) at position 23"],
      ];
      for (const [reference, stray] of padded) {
        const answer = await server.call("POST", "/v1", {
          key,
          body: { videos: ["aqz-KE-bpKQ", reference], schema: { columns: ["a"] } },
        });
        expectHandled(answer, undefined, JSON.stringify(reference));
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.error).toMatchObject({ code: "invalid_request", param: "videos[1]" });
        expect(answer.body.error.message).toBe(
          `\`videos[1]\` has ${stray}; send the video's URL or 11-character id alone, with no spaces, tabs, line breaks or invisible characters around or inside it.`,
        );
      }
      const jobs = await server.call("GET", "/v1", { key });
      expect(jobs.body.data).toEqual([]);
      // The same references without the whitespace are accepted.
      const clean = await server.call("POST", "/v1", {
        key,
        body: { videos: ["dQw4w9WgXcQ", "https://youtu.be/aqz-KE-bpKQ"], schema: { columns: ["a"] } },
      });
      expect(clean.status, clean.text).toBe(202);
    });

    it("refuses a NUL character anywhere with 400 naming where it is", async () => {
      const { key } = await server.workspace();
      const cases: [string, string, unknown, string][] = [
        ["POST", "/v1/keys", { label: "a\u0000b" }, "label"],
        ["POST", "/v1/keys", { "la\u0000bel": "x" }, "la\u0000bel"],
        ["POST", "/v1/schemas", { name: "n", schema: { columns: ["a", "\u0000"] } }, "schema.columns[1]"],
        [
          "POST",
          "/v1/schemas",
          { name: "n", description: "\u0000", schema: { columns: ["a"] } },
          "description",
        ],
        ["GET", "/v1/schemas/sch_%00", undefined, "id"],
        ["DELETE", "/v1/keys/%00", undefined, "id"],
      ];
      for (const [method, path, body, param] of cases) {
        const answer = await server.call(method, path, { key, body });
        expectHandled(answer, undefined, `${method} ${path}`);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.error.param).toBe(param);
        expect(answer.body.error.message).toContain("NUL");
      }
      // A written-out backslash followed by u0000 is ordinary text.
      const literal = await server.call("POST", "/v1/keys", { key, body: { label: "\\u0000" } });
      expect(literal.status, literal.text).toBe(201);
      expect(literal.body.label).toBe("\\u0000");
    });
  });
}
