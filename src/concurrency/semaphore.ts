// A counting semaphore: bounds how many of something run at once, across every caller that shares it.

export class Semaphore {
  private available: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`Semaphore capacity must be >= 1; got ${capacity}.`);
    this.available = capacity;
  }

  get inUse(): number {
    return this.capacity - this.available;
  }

  async acquire(): Promise<void> {
    if (this.available > 0) {
      this.available--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    // The permit passes straight to the next waiter, so a newcomer cannot overtake it.
    if (next) next();
    else this.available++;
  }

  /** Runs `work` holding one permit. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}
