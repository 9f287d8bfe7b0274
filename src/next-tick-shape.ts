// Keeps the shape of Node's next-tick objects alive for the life of the process, so that queueing a tick
// stays on V8's fast path. Imported first by the CLI, before the modules whose loading runs the garbage
// collector.
//
// Why: `process.nextTick` builds each queued tick as an object literal with two symbol keys. V8 holds the
// hidden classes (maps) of such literals weakly; a full garbage collection at a moment when no tick is
// queued frees them, and the next tick builds new ones. The literal's inline cache sees a new map after
// every such collection and, after a few, gives up for good (megamorphic): from then on every tick is
// built through V8's runtime, a slow path. Node's HTTP server and streams queue several ticks per request,
// and a server that has started up (module loading, migrations, the OpenAPI document) has been through
// enough collections: this cost about 4-5 µs of CPU per request (perf: Runtime_DefineKeyedOwnPropertyInLiteral).
// One tick object held here keeps its maps, and so the cache, monomorphic.
import { createHook } from "node:async_hooks";

// Module scope: held for as long as the process runs.
const heldTicks: object[] = [];

// An async hook is the only way to see a tick object; it is enabled for one `nextTick` call only (hooks
// cost something on every async operation while they are on).
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === "TickObject" && heldTicks.length === 0) heldTicks.push(resource);
  },
});
hook.enable();
process.nextTick(() => {});
hook.disable();
