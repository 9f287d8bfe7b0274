// Where an S3-compatible upload store is (VIDROWS_UPLOAD_STORE=s3://bucket/prefix): the bucket and the
// prefix of the objects' names from the value, the endpoint and region from their own settings. Keys are
// not settings of ours: the AWS SDK reads them the way every S3 tool does (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY, a profile, or the machine's role).
import { ConfigError } from "./setting-values.js";

export interface S3Location {
  readonly bucket: string;
  /** Put before each upload's id in its object's name: empty, or ending in `/`. */
  readonly prefix: string;
  /** VIDROWS_S3_ENDPOINT: another provider's or a local server's URL; unset, AWS's own for the region. */
  readonly endpoint?: string;
  /** VIDROWS_S3_REGION, else AWS_REGION, else `us-east-1`. */
  readonly region: string;
}

/** Bucket names as S3 allows them (also what every compatible store takes). */
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function endpointSetting(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.VIDROWS_S3_ENDPOINT?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `VIDROWS_S3_ENDPOINT must be a URL such as https://s3.example.com; got ${JSON.stringify(raw)}.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      `VIDROWS_S3_ENDPOINT must be an http:// or https:// URL; got ${JSON.stringify(raw)}.`,
    );
  }
  return raw;
}

/** The location `raw` (`s3://bucket` or `s3://bucket/prefix`) names, with the endpoint and region. */
export function s3Location(raw: string, env: NodeJS.ProcessEnv): S3Location {
  const [bucket = "", ...rest] = raw.slice("s3://".length).split("/");
  if (!bucketPattern.test(bucket)) {
    throw new ConfigError(
      `VIDROWS_UPLOAD_STORE names the bucket ${JSON.stringify(bucket)}, which is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens): use s3://bucket/prefix.`,
    );
  }
  const path = rest.filter((part) => part !== "").join("/");
  return {
    bucket,
    prefix: path === "" ? "" : `${path}/`,
    endpoint: endpointSetting(env),
    region: env.VIDROWS_S3_REGION?.trim() || env.AWS_REGION?.trim() || "us-east-1",
  };
}
