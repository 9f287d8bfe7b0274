// Which language model to use, read from VIDROWS_LLM_BASE_URL, VIDROWS_LLM_API_KEY (or OPENAI_API_KEY) and VIDROWS_LLM_MODEL.

export const openAiBaseUrl = "https://api.openai.com/v1";
/** A small, cheap, current model that supports strict structured output. */
export const defaultModel = "gpt-4o-mini";

export interface ExtractionSettings {
  /** An OpenAI-compatible API root such as `http://127.0.0.1:11434/v1`; undefined means OpenAI's. */
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly model: string;
}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** The model settings; throws an Error naming the variable when one is unusable. */
export function parseExtractionSettings(env: NodeJS.ProcessEnv = process.env): ExtractionSettings {
  const baseUrl = setting(env, "VIDROWS_LLM_BASE_URL");
  if (baseUrl !== undefined) {
    let protocol: string | undefined;
    try {
      protocol = new URL(baseUrl).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== "http:" && protocol !== "https:") {
      throw new Error(
        `VIDROWS_LLM_BASE_URL must be an http:// or https:// URL of an OpenAI-compatible API (such as http://127.0.0.1:11434/v1); got "${baseUrl}".`,
      );
    }
  }
  return {
    baseUrl,
    apiKey: setting(env, "VIDROWS_LLM_API_KEY") ?? setting(env, "OPENAI_API_KEY"),
    model: setting(env, "VIDROWS_LLM_MODEL") ?? defaultModel,
  };
}

/**
 * A model is configured when there is a key (for OpenAI's API or another) or a base URL (a local server
 * such as Ollama needs no key). Without either, submissions answer 503 `extraction_unavailable`.
 */
export function isModelConfigured(settings: Pick<ExtractionSettings, "baseUrl" | "apiKey">): boolean {
  return settings.apiKey !== undefined || settings.baseUrl !== undefined;
}
