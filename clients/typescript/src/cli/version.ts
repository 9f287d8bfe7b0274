// The package's version, read from its package.json (two folders up from src/cli and from dist/cli alike).
import { readFileSync } from "node:fs";

export function clientVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}
