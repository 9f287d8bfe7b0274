// A request's logger made on its first line: the same lines a pino child writes, and none made before.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { deferredChildLogger } from "../../src/http/deferred-child-logger.js";

function capturing(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe("deferredChildLogger", () => {
  it("writes each line with the request's bindings, as the child it stands for", () => {
    const { logger, lines } = capturing();
    const log = deferredChildLogger(logger, { reqId: "req_1" });
    log.error({ err: new Error("boom") }, "request failed");
    log.info("second");
    log.debug("below the level");
    expect(lines.map((l) => [l.reqId, l.msg, l.level])).toEqual([
      ["req_1", "request failed", 50],
      ["req_1", "second", 30],
    ]);
    expect((lines[0]?.err as { message: string }).message).toBe("boom");
  });

  it("makes no child until a line is logged", () => {
    const { logger } = capturing();
    let made = 0;
    const counting = Object.assign(Object.create(logger), {
      child: (...args: Parameters<typeof logger.child>) => {
        made++;
        return logger.child(...args);
      },
    });
    const log = deferredChildLogger(counting, { reqId: "req_2" });
    expect(log.level).toBe("info");
    expect(made).toBe(0);
    log.warn("now");
    log.warn("again");
    expect(made).toBe(1);
  });

  it("keeps a level the route asks for, and its children carry both bindings", () => {
    const { logger, lines } = capturing("info");
    const log = deferredChildLogger(logger, { reqId: "req_3" }, { level: "debug" });
    expect(log.level).toBe("debug");
    log.debug("shown at the route's level");
    log.child({ part: "inner" }).info("nested");
    expect(lines.map((l) => [l.reqId, l.part, l.msg])).toEqual([
      ["req_3", undefined, "shown at the route's level"],
      ["req_3", "inner", "nested"],
    ]);
  });
});
