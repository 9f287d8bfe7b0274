// The SHA-256 of API keys presented lately, by key: one hash per key, not one per request.
import { hashApiKey } from "../domain/api-key-material.js";

/**
 * Hashing a key costs about a microsecond (a native hash object made and finished), and a client
 * sends the same key with every request. A hash depends on nothing but its key, so it never goes
 * stale; the memory is bounded by `capacity` keys, and past it starts over.
 */
export class KeyHashes {
  private readonly byKey = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  of(key: string): string {
    let hash = this.byKey.get(key);
    if (hash === undefined) {
      hash = hashApiKey(key);
      if (this.byKey.size >= this.capacity) this.byKey.clear();
      this.byKey.set(key, hash);
    }
    return hash;
  }
}
