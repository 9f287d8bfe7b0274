// Reading WebVTT and SubRip caption files into cues, with the `subtitle` library doing the timing lines.
import { type NodeList, parseSync } from "subtitle";
import type { CaptionCue } from "../domain/transcript.js";
import { cleanCueText } from "./caption-text.js";
import { removeRollingRepeats } from "./rolling-captions.js";

const timingLine = /^\s*(?:\d+:)?\d{1,2}:\d{1,2}[,.]\d{1,3}\s+-->\s+(?:\d+:)?\d{1,2}:\d{1,2}[,.]\d{1,3}/;

/**
 * Only the cue blocks, each as its timing line and text lines. The library stops at the first thing it does
 * not know (a WebVTT STYLE or REGION block, a cue identifier that is not a number, a stray line), so those
 * are left out here rather than failing a whole transcript over one odd block.
 */
function cueBlocks(text: string): string {
  const blocks: string[] = [];
  // Blocks are separated by empty lines only: YouTube's cues often start with a line of one space.
  for (const block of text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)) {
    const lines = block.split("\n");
    const timing = lines.findIndex((line) => timingLine.test(line));
    if (timing === -1) continue;
    const timingText = (lines[timing] ?? "").trim().replace(/\s+-->\s+/, " --> ");
    const textLines = lines.slice(timing + 1);
    if (textLines.every((line) => line.trim() === "")) continue;
    blocks.push([timingText, ...textLines].join("\n"));
  }
  return blocks.join("\n\n");
}

function toCues(nodes: NodeList): CaptionCue[] {
  const cues: CaptionCue[] = [];
  for (const node of nodes) {
    if (node.type !== "cue") continue;
    const text = cleanCueText(node.data.text);
    if (text === "") continue;
    cues.push({ startMs: node.data.start, endMs: Math.max(node.data.start, node.data.end), text });
  }
  return cues;
}

/** The cues of a WebVTT or SubRip text, markup removed and roll-up repeats undone. */
export function parseTimedText(text: string): CaptionCue[] {
  return removeRollingRepeats(toCues(parseSync(cueBlocks(text))));
}

export const parseWebVtt = parseTimedText;
export const parseSrt = parseTimedText;
