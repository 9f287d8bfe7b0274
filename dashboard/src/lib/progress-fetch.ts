// A fetch that sends through XMLHttpRequest, for the one kind of request whose progress the page shows: a
// file upload. The browser's fetch says nothing of how much of a request body has left, and sends a body
// as a stream only over HTTP/2 (the server speaks HTTP/1.1), so `vr.uploads.create` is given this instead:
// the client still makes the request, reads the answer and its errors as for any other call.

/** Bytes of the request body sent so far, of how many. */
export type ProgressListener = (sentBytes: number, totalBytes: number) => void;

/** Statuses whose answers have no body: a Response built for them must be given none. */
const bodilessStatuses = new Set([204, 205, 304]);

/** The answer's headers, from the `name: value` lines XMLHttpRequest gives them as. */
function headersOf(request: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of request.getAllResponseHeaders().split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function fetchReportingProgress(onProgress: ProgressListener): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? null;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const request = new XMLHttpRequest();
      request.open(init.method ?? "GET", input instanceof Request ? input.url : String(input));
      new Headers(init.headers).forEach((value, name) => request.setRequestHeader(name, value));
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      request.onload = () => {
        const body = bodilessStatuses.has(request.status) ? null : request.responseText;
        resolve(new Response(body, { status: request.status, headers: headersOf(request) }));
      };
      // As fetch does: a request that got no answer rejects with a TypeError, which the client reads as a
      // network error; one its signal stopped rejects with the signal's reason.
      request.onerror = () => reject(new TypeError("The upload got no answer from the server."));
      request.onabort = () =>
        reject(signal?.reason ?? new DOMException("The upload was stopped.", "AbortError"));
      signal?.addEventListener("abort", () => request.abort(), { once: true });
      request.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
