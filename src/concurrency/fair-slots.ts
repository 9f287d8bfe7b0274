// A few slots shared between tenants: whoever finds one free takes it, and a slot that frees while
// several tenants wait goes to the one holding the fewest, among equals to the one served longest ago,
// so that one tenant's slow work never holds every slot while another's waits, and a tenant alone
// uses them all. Each tenant waits in its own first-come queue, bounded, and a waiter whose request
// went away leaves it.

/** A tenant already has as many waiting as it may: the caller refuses the request rather than queue it. */
export class QueueFull extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} already waiting for a slot`);
  }
}

/** How a request waits: until `signal` aborts, if it does; `onQueued` hears it enter its tenant's queue. */
export interface WaitOptions {
  readonly signal?: AbortSignal;
  readonly onQueued?: (waiting: number) => void;
}

interface Waiter {
  readonly grant: () => void;
}

export class FairSlots {
  private free: number;
  /** Slots held, per tenant holding any. */
  private readonly held = new Map<string, number>();
  /** Each waiting tenant's queue, first come first. */
  private readonly queues = new Map<string, Waiter[]>();
  /** Tenants in the order they were last handed a slot, the longest ago first: the rotation among equals. */
  private readonly servedOrder: string[] = [];

  /**
   * `capacity` slots in all; `maxWaitingPerTenant` requests of one tenant may wait (0: none, a tenant
   * finding no slot free is refused at once).
   */
  constructor(
    readonly capacity: number,
    readonly maxWaitingPerTenant: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`FairSlots capacity must be >= 1; got ${capacity}.`);
    if (!Number.isInteger(maxWaitingPerTenant) || maxWaitingPerTenant < 0)
      throw new Error(`FairSlots queue bound must be >= 0; got ${maxWaitingPerTenant}.`);
    this.free = capacity;
  }

  /** How many of `tenant`'s requests wait for a slot. */
  waiting(tenant: string): number {
    return this.queues.get(tenant)?.length ?? 0;
  }

  /** How many slots `tenant` holds. */
  holding(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  /**
   * Runs `work` in one of `tenant`'s slots, once it has one. Throws QueueFull when the tenant's queue is
   * full, and `signal`'s reason when it aborts while waiting (its place then goes to whoever is next).
   */
  async run<T>(tenant: string, work: () => Promise<T>, options: WaitOptions = {}): Promise<T> {
    await this.acquire(tenant, options);
    try {
      return await work();
    } finally {
      this.release(tenant);
    }
  }

  private acquire(tenant: string, { signal, onQueued }: WaitOptions): Promise<void> {
    signal?.throwIfAborted();
    // A free slot means nobody waits (a freed slot goes straight to a waiter), so taking it skips no one.
    if (this.free > 0) {
      this.free--;
      this.handTo(tenant);
      return Promise.resolve();
    }
    const queue = this.queues.get(tenant) ?? [];
    if (queue.length >= this.maxWaitingPerTenant) throw new QueueFull(queue.length);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.leave(tenant, waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      queue.push(waiter);
      this.queues.set(tenant, queue);
      signal?.addEventListener("abort", onAbort, { once: true });
      onQueued?.(queue.length);
    });
  }

  private release(tenant: string): void {
    const left = this.holding(tenant) - 1;
    if (left > 0) this.held.set(tenant, left);
    else this.held.delete(tenant);
    const next = this.nextTenant();
    if (next === undefined) {
      this.free++;
      return;
    }
    const queue = this.queues.get(next) as Waiter[];
    const waiter = queue.shift() as Waiter;
    if (queue.length === 0) this.queues.delete(next);
    this.handTo(next);
    waiter.grant();
  }

  /** The waiting tenant holding the fewest slots; among equals, the one handed a slot longest ago. */
  private nextTenant(): string | undefined {
    let best: string | undefined;
    for (const tenant of this.queues.keys()) {
      if (best === undefined || this.before(tenant, best)) best = tenant;
    }
    return best;
  }

  private before(tenant: string, other: string): boolean {
    const holds = this.holding(tenant);
    const otherHolds = this.holding(other);
    if (holds !== otherHolds) return holds < otherHolds;
    // Never served (-1) comes before any tenant that was.
    return this.servedOrder.indexOf(tenant) < this.servedOrder.indexOf(other);
  }

  private handTo(tenant: string): void {
    this.held.set(tenant, this.holding(tenant) + 1);
    const at = this.servedOrder.indexOf(tenant);
    if (at >= 0) this.servedOrder.splice(at, 1);
    this.servedOrder.push(tenant);
    // Only tenants holding or waiting matter to the rotation: the list stays as short as they are few.
    for (let i = this.servedOrder.length - 1; i >= 0; i--) {
      const name = this.servedOrder[i] as string;
      if (!this.held.has(name) && !this.queues.has(name)) this.servedOrder.splice(i, 1);
    }
  }

  private leave(tenant: string, waiter: Waiter): void {
    const queue = this.queues.get(tenant);
    if (queue === undefined) return;
    const at = queue.indexOf(waiter);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(tenant);
  }
}
