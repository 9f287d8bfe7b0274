// Programs that die with the process that started them. yt-dlp and ffmpeg run in a process group of their own
// (so that a stopped run kills all they started), which also means nothing ends them when their vidrows
// process is killed with SIGKILL: they would go on downloading into a folder nobody will read. On Linux,
// util-linux's `setpriv --pdeathsig` asks the kernel to signal a child when its parent dies; it reaches only
// that one process, so the child is a tiny keeper (/bin/sh) that starts the program inside the group and,
// on that signal, kills the whole group (the program and whatever it started). Where setpriv is missing
// (macOS, a minimal image), programs start as before and the sweep at the next start kills what a killed
// process left running (work-folders.ts); docs/operations.md says so.
//
// The keeper's script is a constant: the program and its arguments reach it as positional parameters
// ("$@"), never as text a shell reads, so nothing a page or a user sends is interpreted.
//
// The kernel sends the death signal when the *thread* that forked the child ends. Node starts children
// from its main thread (libuv's spawn runs on the calling thread, and runProgram is only called there), so
// the signal comes when the process ends, however it ends.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

const keeperScript = 'trap "kill -KILL 0" TERM HUP; "$@" & wait $!';
const shell = "/bin/sh";

function executableAt(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** setpriv on the search path (else Debian's /usr/bin/setpriv), when it takes --pdeathsig. */
function findSetpriv(searchPath: string): string | null {
  if (process.platform !== "linux" || !executableAt(shell)) return null;
  const candidates = [...searchPath.split(delimiter).filter((folder) => folder !== ""), "/usr/bin"].map(
    (folder) => join(folder, "setpriv"),
  );
  const found = candidates.find(executableAt);
  if (found === undefined) return null;
  // An old util-linux (before 2.33) lacks the option: every run would fail, so it is tried once here.
  const probe = spawnSync(found, ["--pdeathsig", "TERM", "--", shell, "-c", "exit 0"], {
    stdio: "ignore",
    timeout: 10_000,
  });
  return probe.status === 0 ? found : null;
}

let setprivPath: string | null | undefined;

/** The setpriv that gives children a death signal, or null where there is none (looked for once). */
export function deathSignalLauncher(searchPath = process.env.PATH ?? ""): string | null {
  if (setprivPath === undefined) setprivPath = findSetpriv(searchPath);
  return setprivPath;
}

/**
 * The command line that runs `executable` with `args` so that it and all it starts die with this process:
 * through setpriv and the keeper where setpriv is at hand, else the program itself.
 */
export function withDeathSignal(
  executable: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const setpriv = deathSignalLauncher();
  if (setpriv === null) return { command: executable, args: [...args] };
  return {
    command: setpriv,
    args: ["--pdeathsig", "TERM", "--", shell, "-c", keeperScript, "vidrows-keeper", executable, ...args],
  };
}
