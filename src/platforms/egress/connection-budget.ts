// How many connections the egress guard holds open at once across a process's sessions: past the bound a
// new one is closed at once, so that a page cannot make the guard hold sockets without end.

export class ConnectionBudget {
  private open = 0;

  constructor(readonly max: number) {}

  /** Takes one place; false when none is left. */
  take(): boolean {
    if (this.open >= this.max) return false;
    this.open++;
    return true;
  }

  release(): void {
    this.open = Math.max(0, this.open - 1);
  }

  get inUse(): number {
    return this.open;
  }
}
