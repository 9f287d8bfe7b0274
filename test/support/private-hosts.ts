// A hosts file of a test's own for one `vidrows serve` process: the server runs in a mount namespace of its
// own where the file is mounted over /etc/hosts, so public-looking names resolve to this machine's loopback
// addresses for it alone (the system resolver reads /etc/hosts first), while it shares the machine's network
// with the test. Needs the right to make a mount namespace (root, or a container that allows unshare).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// `sh -c` with the hosts file as $0 and the server's command line as "$@": exec keeps the process id, so the
// test's signals reach the server itself.
const mountThenRun = 'mount --bind "$0" /etc/hosts && exec "$@"';

export interface PrivateHosts {
  /** The launcher to start the server with (ServerOptions.launcher). */
  readonly launcher: readonly string[];
  remove(): void;
}

/** Why a hosts file of a test's own cannot be had here, or null when it can. */
export function privateHostsUnavailable(): string | null {
  const probe = spawnSync("unshare", ["--mount", "--", "sh", "-c", mountThenRun, "/etc/hosts", "true"], {
    stdio: "pipe",
    encoding: "utf8",
    timeout: 10_000,
  });
  if (probe.error !== undefined) return `unshare could not be run (${probe.error.message})`;
  if (probe.status !== 0) return `no mount namespace of the test's own here (${probe.stderr.trim()})`;
  return null;
}

/** A hosts file naming `names` (name to address), with localhost as usual. */
export function privateHosts(names: Record<string, string>): PrivateHosts {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-hosts-"));
  const file = join(folder, "hosts");
  const lines = [
    "127.0.0.1 localhost",
    "::1 localhost",
    ...Object.entries(names).map(([n, a]) => `${a} ${n}`),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return {
    launcher: ["unshare", "--mount", "--", "sh", "-c", mountThenRun, file],
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
