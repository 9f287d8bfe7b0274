// A large body that never changes while the process runs (the API reference's script) sent compressed to
// the clients that accept it: brotli or gzip, each compressed once, in the thread pool, and kept.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

export type ContentCoding = "br" | "gzip";

/** In the order preferred when a client weighs both alike: brotli is about a seventh smaller. */
const offered: readonly ContentCoding[] = ["br", "gzip"];

const compressors: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 5: 4.3 MB of script to 1.09 MB in about 0.6 s, once. Quality 11 gains another 14% but takes
  // 24 s of a core; gzip's best is 1.26 MB.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110, 12.5.3): the offered coding of the
 * highest weight above 0, brotli on a tie; `*` weighs every coding not named; none without the header.
 */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.split(",")) {
    const [name = "", ...parameters] = item.split(";").map((part) => part.trim().toLowerCase());
    if (name === "") continue;
    const q = parameters.map((parameter) => /^q=([01](?:\.\d{0,3})?)$/.exec(parameter)?.[1]).find(Boolean);
    // A weight that is not one (`q=abc`) refuses the coding rather than guessing.
    const malformed = q === undefined && parameters.some((parameter) => parameter.startsWith("q="));
    weights.set(name, malformed ? 0 : q === undefined ? 1 : Number(q));
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get("*") ?? 0;
  let best: ContentCoding | undefined;
  for (const coding of offered) {
    if (weightOf(coding) > 0 && (best === undefined || weightOf(coding) > weightOf(best))) best = coding;
  }
  return best;
}

/** One body and its compressed forms, each made on first use. */
export class CompressedVariants {
  private readonly made = new Map<ContentCoding, Promise<Buffer>>();

  constructor(readonly identity: Buffer) {}

  /** The body in `coding`, or as it is without one. */
  body(coding: ContentCoding | undefined): Promise<Buffer> {
    if (coding === undefined) return Promise.resolve(this.identity);
    let variant = this.made.get(coding);
    if (variant === undefined) {
      variant = compressors[coding](this.identity).catch((error: unknown) => {
        this.made.delete(coding); // the next request tries again
        throw error;
      });
      this.made.set(coding, variant);
    }
    return variant;
  }
}
