// The signed-in API key, kept in sessionStorage only: it ends with the tab, and never travels in a
// cookie, the URL or localStorage.
const storageName = "vidrows.apiKey";

export function storedKey(): string | null {
  return sessionStorage.getItem(storageName);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(storageName, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(storageName);
}
