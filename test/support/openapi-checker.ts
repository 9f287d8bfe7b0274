// Checks an answer against the OpenAPI document: the operation's response for its status, body and headers.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, any>;

export interface CheckedAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON, or the text when it is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

const documentId = "openapi";

/** Where an answer's description is in the document, and that description (after `$ref`s). */
interface Described {
  readonly where: string;
  readonly response: Json;
}

/** Every `#/...` reference made absolute to the document, so a schema cut out of it compiles on its own. */
function anchored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(anchored);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === "$ref" && typeof child === "string" && child.startsWith("#/")
        ? `${documentId}${child}`
        : anchored(child),
    ]),
  );
}

/** A header's text as the value its schema describes (an integer header's digits as a number). */
function headerValue(text: string, schema: Json): unknown {
  return (schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(text)
    ? Number(text)
    : text;
}

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: false,
    validateSchema: false,
  });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly operations: {
    method: string;
    path: string;
    pattern: RegExp;
    templated: number;
    operation: Json;
  }[] = [];

  constructor(private readonly document: Json) {
    this.ajv.addSchema(document, documentId);
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]*");
      const templated = (path.match(/\{/g) ?? []).length;
      for (const [method, operation] of Object.entries(item)) {
        this.operations.push({
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(`^${source}$`),
          templated,
          operation,
        });
      }
    }
  }

  /** The problems of `answer` to `method path` against the document; none when it fits. */
  problems(method: string, path: string, answer: CheckedAnswer): string[] {
    const described = this.describe(method.toUpperCase(), path.split("?")[0] ?? "", answer.status);
    if (typeof described === "string") return [described];
    const { where, response } = described;
    const problems = this.headerProblems(where, response, answer.headers);
    const content = response.content as Record<string, Json> | undefined;
    if (method.toUpperCase() === "HEAD") return problems;
    if (!content) {
      if (answer.text !== "")
        problems.push(`${where}: declares no body, but the answer has one: ${answer.text.slice(0, 200)}`);
      return problems;
    }
    const json = content["application/json"];
    if (!json) return [...problems, `${where}: declares no JSON body`];
    if (!/^application\/json/.test(answer.headers.get("content-type") ?? "")) {
      problems.push(
        `${where}: the answer's content-type is ${answer.headers.get("content-type")}, not application/json`,
      );
    }
    const validate = this.validator(`${where} body`, json.schema);
    if (!validate(answer.body)) {
      problems.push(
        `${where}: the body does not fit: ${this.ajv.errorsText(validate.errors)}; body: ${answer.text.slice(0, 300)}`,
      );
    }
    return problems;
  }

  /** Throws when `answer` does not fit the document, naming every problem. */
  check(method: string, path: string, answer: CheckedAnswer): void {
    const problems = this.problems(method, path, answer);
    if (problems.length > 0) {
      throw new Error(
        `The answer to ${method} ${path} does not fit the OpenAPI document:\n${problems.join("\n")}`,
      );
    }
  }

  private describe(method: string, path: string, status: number): Described | string {
    const onPath = this.operations.filter((o) => o.pattern.test(path));
    const lookup = method === "HEAD" ? "GET" : method;
    // A literal segment wins over a template (`/v1/usage` is not a job id).
    const found = onPath.filter((o) => o.method === lookup).sort((a, b) => a.templated - b.templated)[0];
    if (!found) {
      // No operation: the server's own answers for a path it does not serve, or a method a path does not take.
      if (status === 405 && onPath.length > 0) {
        return {
          where: `405 for ${method} ${path}`,
          response: this.resolve(this.document.components?.responses?.MethodNotAllowed),
        };
      }
      if (status === 404 || status === 400) {
        return { where: `${status} for ${method} ${path}`, response: this.errorWithoutOperation() };
      }
      return `${method} ${path}: no operation in the document, and answered ${status}`;
    }
    const where = `${found.method} ${found.path} ${status}`;
    const responses = found.operation.responses as Record<string, Json>;
    const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!response)
      return `${where}: the document declares no such status (it has ${Object.keys(responses).join(", ")})`;
    return { where, response: this.resolve(response) };
  }

  /** An unknown path's 404, or a URL that cannot be read (400): the error envelope with a request id. */
  private errorWithoutOperation(): Json {
    return {
      headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }

  private resolve(value: Json | undefined): Json {
    let node: unknown = value;
    while (node && typeof node === "object" && typeof (node as Json).$ref === "string") {
      const pointer = ((node as Json).$ref as string).slice(2).split("/");
      node = pointer.reduce<unknown>(
        (at, token) => (at as Json | undefined)?.[token.replace(/~1/g, "/").replace(/~0/g, "~")],
        this.document,
      );
    }
    if (!node || typeof node !== "object") throw new Error(`Unresolvable reference ${JSON.stringify(value)}`);
    return node as Json;
  }

  private headerProblems(where: string, response: Json, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = this.resolve(declared);
      const text = headers.get(name);
      if (text === null) {
        if (header.required === true) problems.push(`${where}: header ${name} is required but missing`);
        continue;
      }
      const validate = this.validator(`${where} header ${name}`, header.schema ?? {});
      if (!validate(headerValue(text, header.schema ?? {}))) {
        problems.push(
          `${where}: header ${name}: ${JSON.stringify(text)} ${this.ajv.errorsText(validate.errors)}`,
        );
      }
    }
    return problems;
  }

  /** A validator for a schema of the document (its `$ref`s resolved in the document). */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(anchored(schema) as object);
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

const checkers = new Map<string, OpenApiChecker>();

/** One checker per distinct document (every test server serves the same one, so it is built once). */
export function checkerFor(document: Json): OpenApiChecker {
  const text = JSON.stringify(document);
  let checker = checkers.get(text);
  if (!checker) {
    checker = new OpenApiChecker(document);
    checkers.set(text, checker);
  }
  return checker;
}
