// VIDROWS_YOUTUBE_PROXY as a pool of exit addresses: one or more http://, https:// or socks5:// proxies,
// handed out in turn, one per attempt, so that a retry leaves by another address than the one refused.

const schemes = ["http:", "https:", "socks5:", "socks5h:"];

/** Why one proxy URL cannot be used, or null when it can. */
export function proxyProblem(proxy: string): string | null {
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    return "it is not a URL";
  }
  if (!schemes.includes(url.protocol)) return "it must be an http://, https://, socks5:// or socks5h:// URL";
  if (url.hostname === "") return "it names no host";
  return null;
}

/** The proxies of a setting, separated by commas or spaces; throws an Error saying which one is unusable. */
export function parseProxyList(setting: string): string[] {
  const proxies = setting
    .split(/[\s,]+/)
    .map((proxy) => proxy.trim())
    .filter((proxy) => proxy !== "");
  for (const proxy of proxies) {
    const problem = proxyProblem(proxy);
    // Only the scheme and host of a bad entry: the rest may carry a password.
    if (problem !== null) throw new Error(`"${redacted(proxy)}": ${problem}`);
  }
  return proxies;
}

/** The proxies of a VIDROWS_YOUTUBE_PROXY value (none when unset); throws an Error naming the variable. */
export function parseProxySetting(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  try {
    return parseProxyList(value);
  } catch (error) {
    throw new Error(
      `VIDROWS_YOUTUBE_PROXY must be one or more http://, https:// or socks5:// proxy URLs separated by ` +
        `commas; ${(error as Error).message}.`,
    );
  }
}

/** A proxy URL fit for a message: its password left out. */
export function redacted(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.password !== "") url.password = "***";
    return url.href;
  } catch {
    return proxy.replace(/\/\/[^@/]*@/, "//***@");
  }
}

/**
 * The proxies in turn, shared by everything of a process that asks a video site (platform-access.ts). With none, every attempt goes out
 * directly (undefined).
 */
export class ProxyPool {
  private turn = 0;

  constructor(readonly proxies: readonly string[] = []) {}

  /** The proxy for the next attempt. */
  next(): string | undefined {
    if (this.proxies.length === 0) return undefined;
    const proxy = this.proxies[this.turn % this.proxies.length];
    this.turn = (this.turn + 1) % this.proxies.length;
    return proxy;
  }
}
