// The two headers that say how a JSON body's bytes are to be read: only UTF-8, uncompressed, is read.
import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "./api-errors.js";

/** `charset=...` among a content type's parameters, its value unquoted (`charset="UTF-8"` is `UTF-8`). */
const charsetParameter = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/**
 * A 415 unless the body's bytes are plain UTF-8 as sent: no `content-encoding` other than `identity`
 * (the server decompresses nothing; read as JSON, a gzip body would be refused as bad text, or worse,
 * a body that decompresses to something else would be read as it stands), and no `charset` that does not
 * name UTF-8 (JSON is UTF-8, RFC 8259; a body sent as UTF-16 would be read as other text). A charset names
 * UTF-8 when the Encoding Standard's labels say so (`utf-8`, `utf8`, `unicode-1-1-utf-8`, in any case).
 * No charset at all is UTF-8.
 */
export function checkBodyEncoding(headers: IncomingHttpHeaders): void {
  const encoding = headers["content-encoding"]?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== "" && encoding !== "identity") {
    throw new ApiError(
      "unsupported_media_type",
      `The request body is sent with \`content-encoding: ${headers["content-encoding"]}\`, which this API does not read; send it uncompressed, without a content-encoding header (or with \`identity\`).`,
    );
  }
  const type = headers["content-type"];
  // Most bodies come as plain `application/json`, with no parameter to read.
  if (type === undefined || !type.includes(";")) return;
  const match = charsetParameter.exec(type);
  if (match === null) return;
  const charset = (match[1] ?? match[2] ?? "").trim();
  if (!namesUtf8(charset)) {
    throw new ApiError(
      "unsupported_media_type",
      `The request body is declared as \`charset=${charset}\`; send JSON encoded as UTF-8, with \`content-type: application/json\` (or \`application/json; charset=utf-8\`).`,
    );
  }
}

/** Whether `label` is one of the Encoding Standard's names for UTF-8 (TextDecoder knows them all). */
function namesUtf8(label: string): boolean {
  if (label === "") return false;
  try {
    return new TextDecoder(label).encoding === "utf-8";
  } catch {
    return false;
  }
}
