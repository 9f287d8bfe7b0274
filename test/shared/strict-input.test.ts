// Input that JavaScript would read loosely is refused by name: integer text, bytes, compressed or
// non-UTF-8 bodies, keys, credentials.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, endpoints, livePath } from "../support/endpoints.js";
import { rawRequest } from "../support/raw-http.js";
import { type ApiResponse, startTestServer, type TestServer } from "../support/test-server.js";

function expectRefusal(answer: ApiResponse, status: number, code: string, param: string | undefined) {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBe(status);
  expect(Object.keys(answer.body ?? {}), context).toEqual(["error"]);
  expect(answer.body.error.code, context).toBe(code);
  expect(answer.body.error.param, context).toBe(param);
  expect(answer.body.error.request_id, context).toBe(answer.headers.get("x-request-id"));
}

const looseIntegers = [
  "Infinity",
  "-Infinity",
  "1e400",
  `1${"0".repeat(400)}`,
  "9007199254740993",
  "0x10",
  "1e1",
  "+5",
  " 5",
  "5 ",
  "1.0",
  "-1",
  "NaN",
  "",
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Strict input on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("refuses query integers that are not plain decimal digits in range, naming the parameter", async () => {
      const { key } = await server.workspace("scale");
      const deliveries = endpoints.find((e) => e.path === "/v1/webhooks/{id}/deliveries");
      if (!deliveries) throw new Error("no deliveries endpoint");
      const deliveriesPath = await livePath(server, key, deliveries);
      const lists: [string, string, string][] = [
        ["/v1", "limit", "from 1 to 100"],
        ["/v1", "offset", "from 0 to 1000000000"],
        [deliveriesPath, "limit", "from 1 to 100"],
        [deliveriesPath, "offset", "from 0 to 1000000000"],
      ];
      for (const [path, param, range] of lists) {
        for (const value of looseIntegers) {
          const answer = await server.call("GET", `${path}?${param}=${encodeURIComponent(value)}`, { key });
          expectRefusal(answer, 400, "invalid_request", param);
          expect(answer.body.error.message, `${param}=${value}`).toBe(
            `\`${param}\` must be an integer ${range}, written in decimal digits only.`,
          );
        }
        // Plain digits in range still pass, leading zeros included; digits out of range say so.
        const within = await server.call("GET", `${path}?${param}=05`, { key });
        expect(within.status, within.text).toBe(200);
        expect(within.body.pagination[param]).toBe(5);
        const over = await server.call("GET", `${path}?${param}=2000000000`, { key });
        expectRefusal(over, 400, "invalid_request", param);
      }
    });

    it("refuses a JSON body that is not UTF-8 with 400, and stores nothing", async () => {
      const { key } = await server.workspace("scale");
      const before = await server.call("GET", "/v1/keys", { key });
      const bodies = [
        Buffer.concat([Buffer.from('{"label":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
        Buffer.concat([Buffer.from('{"label":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
        Buffer.concat([Buffer.from('{"label":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      ];
      for (const body of bodies) {
        const response = await fetch(`${server.url}/v1/keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body,
        });
        const text = await response.text();
        const answer = { status: response.status, headers: response.headers, body: JSON.parse(text), text };
        expectRefusal(answer, 400, "invalid_request", undefined);
        expect(answer.body.error.message).toBe(
          "The request body is not valid UTF-8; send JSON text encoded as UTF-8.",
        );
      }
      const after = await server.call("GET", "/v1/keys", { key });
      expect(after.body.data.length).toBe(before.body.data.length);
      // Real UTF-8 text passes as it was sent.
      const accented = await server.call("POST", "/v1/keys", { key, body: { label: "café 😀" } });
      expect(accented.status, accented.text).toBe(201);
      expect(accented.body.label).toBe("café 😀");
    });

    /** POST /v1/keys with exactly these headers and bytes (fetch leaves content-encoding as given). */
    const postKeyBody = async (key: string, headers: Record<string, string>, body: Buffer | string) => {
      const response = await fetch(`${server.url}/v1/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, ...headers },
        body,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
    };

    it("refuses a body with a content-encoding other than identity with 415, and stores nothing", async () => {
      const { key } = await server.workspace("scale");
      const json = JSON.stringify({ label: "compressed" });
      const cases: [string, Buffer | string][] = [
        ["gzip", gzipSync(json)],
        ["GZIP", gzipSync(json)],
        ["deflate", json],
        ["br", json],
        ["gzip, identity", gzipSync(json)],
        ["identity, gzip", json],
        ["x-anything", json],
      ];
      for (const [encoding, body] of cases) {
        const answer = await postKeyBody(
          key,
          { "content-type": "application/json", "content-encoding": encoding },
          body,
        );
        expectRefusal(answer, 415, "unsupported_media_type", undefined);
        expect(answer.body.error.message).toBe(
          `The request body is sent with \`content-encoding: ${encoding}\`, which this API does not read; send it uncompressed, without a content-encoding header (or with \`identity\`).`,
        );
      }
      expect((await server.call("GET", "/v1/keys", { key })).body.data).toHaveLength(1);
      // Uncompressed, with or without `identity`, is read.
      const plain: Record<string, string>[] = [
        {},
        { "content-encoding": "identity" },
        { "content-encoding": "Identity" },
      ];
      for (const headers of plain) {
        const answer = await postKeyBody(key, { "content-type": "application/json", ...headers }, json);
        expect(answer.status, answer.text).toBe(201);
      }
    });

    it("refuses a JSON body declared in a charset other than UTF-8 with 415, and stores nothing", async () => {
      const { key } = await server.workspace("scale");
      const json = JSON.stringify({ label: "declared" });
      const cases: [string, string, Buffer | string][] = [
        ["application/json; charset=utf-16", "utf-16", Buffer.from(json, "utf16le")],
        ["application/json; charset=UTF-16LE", "UTF-16LE", Buffer.from(json, "utf16le")],
        ['application/json; charset="utf-16"', "utf-16", Buffer.from(json, "utf16le")],
        ["application/json;charset=iso-8859-1", "iso-8859-1", json],
        ["application/json; charset=latin1", "latin1", json],
        ["application/json; charset=us-ascii", "us-ascii", json],
        ["application/json; charset=", "", json],
      ];
      for (const [contentType, charset, body] of cases) {
        const answer = await postKeyBody(key, { "content-type": contentType }, body);
        expectRefusal(answer, 415, "unsupported_media_type", undefined);
        expect(answer.body.error.message, contentType).toBe(
          `The request body is declared as \`charset=${charset}\`; send JSON encoded as UTF-8, with \`content-type: application/json\` (or \`application/json; charset=utf-8\`).`,
        );
      }
      expect((await server.call("GET", "/v1/keys", { key })).body.data).toHaveLength(1);
      // UTF-8, named by any of its labels, in any case or quoted, or not named at all, is read.
      for (const contentType of [
        "application/json",
        "application/json; charset=utf8",
        "application/json; charset=Unicode-1-1-UTF-8",
        "application/json; charset=utf-8",
        "application/json; charset=UTF-8",
        'application/json; charset="utf-8"',
        "application/json;charset=Utf-8",
      ]) {
        const answer = await postKeyBody(key, { "content-type": contentType }, json);
        expect(answer.status, `${contentType}: ${answer.text}`).toBe(201);
      }
    });

    it("refuses a field given twice in one JSON object with 400 naming it", async () => {
      const { key } = await server.workspace("scale");
      const cases: [string, string, string][] = [
        ["/v1/keys", '{"label":"a","label":"b"}', "label"],
        // The same key written with an escape is the same key.
        ["/v1/keys", '{"label":"a","\\u006cabel":"b"}', "label"],
        ["/v1/keys", '{"label":"a","note":"x", "note" :"y"}', "note"],
        ["/v1", '{"videos":["dQw4w9WgXcQ"],"schema":{"columns":["a"],"columns":["b"]}}', "schema.columns"],
        [
          "/v1",
          '{"videos":["dQw4w9WgXcQ"],"schema":{"template":{"a":"x","b":{"description":"y","description":"z"}}}}',
          "schema.template.b.description",
        ],
        ["/v1/schemas", '{"name":"n","schema":{"columns":["a"]},"name":"m"}', "name"],
      ];
      for (const [path, rawBody, param] of cases) {
        const answer = await server.call("POST", path, {
          key,
          rawBody,
          headers: { "content-type": "application/json" },
        });
        expectRefusal(answer, 400, "invalid_request", param);
        expect(answer.body.error.message).toBe(
          `The request body gives the field \`${param}\` twice; send each field once.`,
        );
      }
      // The same name in two different objects, or as a value, is no duplicate.
      const distinct = await server.call("POST", "/v1/keys", {
        key,
        rawBody: '{"label":"label","note":"a,\\"label\\":\\"b\\""}',
        headers: { "content-type": "application/json" },
      });
      expect(distinct.status, distinct.text).toBe(201);
      const nested = await server.call("POST", "/v1", {
        key,
        rawBody:
          '{"videos":["dQw4w9WgXcQ"],"schema":{"template":{"template":"x","schema":"y","videos":"z"}}}',
        headers: { "content-type": "application/json" },
      });
      expect(nested.status, nested.text).toBe(202);
    });

    it("refuses a request carrying two credentials with 401, even when one of them is valid", async () => {
      const { key } = await server.workspace("scale");
      const pairs: Record<string, string>[] = [
        { authorization: "Bearer garbage", "x-api-key": key },
        { authorization: `Bearer ${key}`, "x-api-key": "garbage" },
        { authorization: `Bearer ${key}`, "x-api-key": key },
        { authorization: "Basic dXNlcjpwYXNz", "x-api-key": key },
      ];
      for (const headers of pairs) {
        const answer = await server.call("GET", "/v1/usage", { headers });
        expectRefusal(answer, 401, "unauthorized", undefined);
        expect(answer.body.error.message).toBe(
          "Send one API key in one header, `Authorization: Bearer <key>` or `x-api-key: <key>`; " +
            "this request has 2 (authorization, x-api-key).",
        );
      }
      // Either header alone still works.
      expect((await server.call("GET", "/v1/usage", { headers: { "x-api-key": key } })).status).toBe(200);
      expect((await server.call("GET", "/v1/usage", { key })).status).toBe(200);
    });

    it("refuses a credential header given twice with 401, even with the same valid key twice", async () => {
      const { key } = await server.workspace("scale");
      // Node keeps only the first of two Authorization headers and joins two x-api-key values with ", ":
      // written on the socket, so the server sees the request exactly as it was sent.
      const repeated: [string, string, string][] = [
        [`Authorization: Bearer ${key}`, "Authorization: Bearer garbage", "authorization, authorization"],
        ["Authorization: Bearer garbage", `authorization: Bearer ${key}`, "authorization, authorization"],
        [`Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`, "authorization, authorization"],
        [`x-api-key: ${key}`, `X-Api-Key: ${key}`, "x-api-key, x-api-key"],
        [`x-api-key: ${key}`, "x-api-key: garbage", "x-api-key, x-api-key"],
      ];
      for (const [first, second, names] of repeated) {
        const raw = await rawRequest(
          server.url,
          `GET /v1/usage HTTP/1.1\r\nHost: x\r\n${first}\r\n${second}\r\nConnection: close\r\n\r\n`,
        );
        const body = JSON.parse(raw.body);
        expectRefusal(
          { status: raw.status, headers: new Headers(raw.headers), body, text: raw.body },
          401,
          "unauthorized",
          undefined,
        );
        expect(body.error.message).toBe(
          "Send one API key in one header, `Authorization: Bearer <key>` or `x-api-key: <key>`; " +
            `this request has 2 (${names}).`,
        );
      }
      // The same request with the header once is served.
      const once = await rawRequest(
        server.url,
        `GET /v1/usage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      );
      expect(once.status, once.body).toBe(200);
    });
  });
}
