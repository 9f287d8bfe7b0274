// Which model the environment names, and when extraction counts as configured.
import { describe, expect, it } from "vitest";
import { defaultModel, isModelConfigured, parseExtractionSettings } from "../../src/model-settings.js";

describe("extraction settings", () => {
  it("are not configured without a key or a base URL", () => {
    expect(isModelConfigured(parseExtractionSettings({}))).toBe(false);
    expect(
      isModelConfigured(parseExtractionSettings({ VIDROWS_LLM_API_KEY: " ", VIDROWS_LLM_MODEL: "x" })),
    ).toBe(false);
    expect(parseExtractionSettings({})).toEqual({
      baseUrl: undefined,
      apiKey: undefined,
      model: defaultModel,
    });
  });

  it("are configured by a key (for OpenAI) or by a base URL alone (a local server needs no key)", () => {
    expect(isModelConfigured(parseExtractionSettings({ VIDROWS_LLM_API_KEY: "sk-1" }))).toBe(true);
    expect(isModelConfigured(parseExtractionSettings({ OPENAI_API_KEY: "sk-2" }))).toBe(true);
    expect(
      isModelConfigured(parseExtractionSettings({ VIDROWS_LLM_BASE_URL: "http://127.0.0.1:11434/v1" })),
    ).toBe(true);
  });

  it("prefer VIDROWS_LLM_API_KEY to OPENAI_API_KEY, and take the model named", () => {
    const settings = parseExtractionSettings({
      VIDROWS_LLM_API_KEY: "sk-vidrows",
      OPENAI_API_KEY: "sk-openai",
      VIDROWS_LLM_MODEL: "llama3.2",
      VIDROWS_LLM_BASE_URL: "https://llm.example/v1",
    });
    expect(settings).toEqual({ baseUrl: "https://llm.example/v1", apiKey: "sk-vidrows", model: "llama3.2" });
    expect(parseExtractionSettings({ OPENAI_API_KEY: "sk-openai" }).apiKey).toBe("sk-openai");
  });

  it("refuse a base URL that is not http(s), naming the variable", () => {
    expect(() => parseExtractionSettings({ VIDROWS_LLM_BASE_URL: "localhost:11434" })).toThrow(
      /VIDROWS_LLM_BASE_URL/,
    );
    expect(() => parseExtractionSettings({ VIDROWS_LLM_BASE_URL: "ftp://x/v1" })).toThrow(
      /VIDROWS_LLM_BASE_URL/,
    );
  });
});
