// Each request's logger (`request.log`), made only when the request logs something.
import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "pino";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
type LogMethod = (...args: unknown[]) => void;

/**
 * Stands in for a child of `parent` carrying a request's bindings (its request id), and makes the
 * child on the first line logged: most requests log nothing (request logging is off), and a pino child
 * serialises its bindings as it is made.
 */
class DeferredChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: Level, args: unknown[]): void {
    const logger = this.logger;
    (logger[level] as LogMethod).apply(logger, args);
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }

  error(...args: unknown[]): void {
    this.write("error", args);
  }

  warn(...args: unknown[]): void {
    this.write("warn", args);
  }

  info(...args: unknown[]): void {
    this.write("info", args);
  }

  debug(...args: unknown[]): void {
    this.write("debug", args);
  }

  trace(...args: unknown[]): void {
    this.write("trace", args);
  }

  silent(...args: unknown[]): void {
    this.write("silent", args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** A child of `parent` with `bindings`, made when it first logs. */
export function deferredChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions = {},
): FastifyBaseLogger {
  return new DeferredChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
