// Reading what yt-dlp printed on standard error: its ERROR and WARNING lines, each as plain text without the
// prefix, the colours, the "[youtube] <id>:" tag or the hints and links it appends for people.

export interface YtDlpMessages {
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
  /** Everything printed, as one line: what an old release's usage error or a crash leaves. */
  readonly all: string;
}

// Colour codes, should a user's configuration ask for them.
const ansiEscape = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const extractorTag = /^\[[\w:.-]+\]\s*(?:[\w-]+:\s+)?/;
// yt-dlp appends advice for people ("Use --cookies ...", "See  https://... for ...", "It is recommended to
// use `-t sleep` ..."): useless in a video's error, and long.
const appendedHint =
  /\s*(?:Use --cookies|See {1,2}https?:\/\/|It is recommended to|For more information, refer to|You might want to use a VPN|Also see {1,2}https?:\/\/|please report this issue).*$/i;

function plain(line: string): string {
  return line.replace(extractorTag, "").replace(appendedHint, "").replace(/\s+/g, " ").trim();
}

/** The lines of yt-dlp's standard error sorted into errors and warnings. */
export function readYtDlpMessages(stderr: string): YtDlpMessages {
  const lines = stderr.replace(ansiEscape, "").split(/\r?\n/);
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const line of lines) {
    if (line.startsWith("ERROR:")) errors.push(plain(line.slice("ERROR:".length).trim()));
    else if (line.startsWith("WARNING:")) warnings.push(plain(line.slice("WARNING:".length).trim()));
  }
  return { errors, warnings, all: lines.join(" ").replace(/\s+/g, " ").trim() };
}

/** A message short enough for a video's error. */
export function shortened(text: string, limit = 300): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
