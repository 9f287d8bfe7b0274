// Takes one answer of the real server and gives it to the bare server to send back (bare-server.ts).

/** Headers each server writes for itself: copying them would send them twice or wrong. */
const ownHeaders = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

export interface RecordedRequest {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Asks `request` once and has the bare server at `bareUrl` answer its status, headers and body from now on. */
export async function recordAnswer(request: RecordedRequest, bareUrl: string): Promise<void> {
  const answer = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!ownHeaders.has(name)) headers[name] = value;
  });
  const recorded = { statusCode: answer.status, headers, body: await answer.text() };
  const stored = await fetch(`${bareUrl}/recorded`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(recorded),
  });
  if (!stored.ok) throw new Error(`The bare server refused the recorded answer: ${stored.status}`);
}
