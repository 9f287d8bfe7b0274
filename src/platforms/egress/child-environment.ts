// The environment yt-dlp and ffmpeg run with: only what they read themselves (the search path, the home
// and XDG folders, the locale, certificate settings), never vidrows' own settings and secrets (the database
// URL, the model's and the transcription endpoint's keys, webhook and data keys), and the egress guard's
// session as their only proxy.

/** Names passed on as they are. */
const passedNames = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TZ",
  "LANG",
  "LANGUAGE",
  "TERM",
  // Python's own (yt-dlp installed with pip or pipx runs inside its environment).
  "PYTHONPATH",
  "PYTHONHOME",
  "VIRTUAL_ENV",
  // Where yt-dlp's JavaScript runtime keeps its cache.
  "DENO_DIR",
  // Certificates: OpenSSL's, Python requests', curl's.
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "NODE_EXTRA_CA_CERTS",
]);

/** Families passed on: the locale's categories and the XDG base folders. */
const passedPrefixes = ["LC_", "XDG_"];

function passes(name: string): boolean {
  return passedNames.has(name) || passedPrefixes.some((prefix) => name.startsWith(prefix));
}

/**
 * The environment of a child program: what `parent` holds of the names above, the session's proxy for
 * every scheme, and `extra`. yt-dlp is handed the session here rather than as --proxy: with --proxy,
 * releases before 2023.11 proxy http and https only and follow a redirect to ftp:// straight to its
 * address, while from the environment they send ftp:// to the proxy too, which refuses it. ffmpeg reads
 * http_proxy (for https as well); the programs yt-dlp starts read the rest.
 */
export function childEnvironment(
  parent: NodeJS.ProcessEnv,
  proxyUrl: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && passes(name)) env[name] = value;
  }
  if (proxyUrl !== undefined) {
    for (const name of ["http_proxy", "https_proxy", "ftp_proxy", "all_proxy"]) {
      env[name] = proxyUrl;
      env[name.toUpperCase()] = proxyUrl;
    }
  }
  return { ...env, ...extra };
}
