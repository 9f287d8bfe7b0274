// Reading an OpenAI-compatible /audio/transcriptions answer: `verbose_json` with segments, plain `json`
// with only text, or a bare text body, into segments of a piece.
import { type PieceTranscription, type SpokenSegment, TranscriptionError } from "./transcriber.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function garbage(problem: string): TranscriptionError {
  return new TranscriptionError(`The transcription service answered garbage: ${problem}.`, true);
}

/** A segment as the service gave it, or null for one without words; throws for a malformed one. */
function segmentOf(raw: unknown, index: number): SpokenSegment | null {
  if (!isRecord(raw)) throw garbage(`segment ${index} is not an object`);
  const { start, end, text } = raw;
  if (
    typeof start !== "number" ||
    typeof end !== "number" ||
    !Number.isFinite(start) ||
    !Number.isFinite(end)
  ) {
    throw garbage(`segment ${index} has no numeric start and end`);
  }
  if (typeof text !== "string") throw garbage(`segment ${index} has no text`);
  const words = text.trim();
  if (words === "") return null;
  // Servers round: an end a hair before the start is read as an instant, never as a negative span.
  const startSeconds = Math.max(0, start);
  return { startSeconds, endSeconds: Math.max(startSeconds, end), text: words };
}

/** One span over the whole piece, for an answer without times (said in docs/captions-and-transcription.md). */
function untimed(text: string, pieceSeconds: number | undefined): PieceTranscription {
  const words = text.trim();
  if (words === "") return { segments: [], timed: false };
  return { segments: [{ startSeconds: 0, endSeconds: pieceSeconds ?? 0, text: words }], timed: false };
}

/**
 * The segments of an answer body. `pieceSeconds` (the piece's known length, else the answer's own
 * `duration`) bounds the one span of an answer that gave no times.
 */
export function readTranscriptionAnswer(
  body: string,
  contentType: string,
  pieceSeconds: number | undefined,
): PieceTranscription {
  if (!/json/i.test(contentType)) return untimed(body, pieceSeconds);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw garbage("its JSON does not parse");
  }
  if (!isRecord(parsed)) throw garbage("it is not a JSON object");
  const duration = typeof parsed.duration === "number" ? parsed.duration : undefined;
  if (Array.isArray(parsed.segments) && parsed.segments.length > 0) {
    const segments = parsed.segments
      .map((segment, index) => segmentOf(segment, index))
      .filter((segment): segment is SpokenSegment => segment !== null);
    return { segments, timed: true };
  }
  if (typeof parsed.text !== "string") throw garbage('it has neither "segments" nor "text"');
  return untimed(parsed.text, pieceSeconds ?? duration);
}
