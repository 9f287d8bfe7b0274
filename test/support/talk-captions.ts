// Real-shaped caption files of a spoken talk, made to measure: a YouTube automatic track in json3 (short
// rolling cues, lower case, no punctuation, numbers often as words) and a manual WebVTT track (sentences,
// capitals, punctuation, prices with signs). Deterministic from a seed; each file lists where the items it
// mentions are said, so a test can check that a row's source holds that moment.

/** A product the talk names, with its price, and when (ms from the start) its name is said. */
export interface Mention {
  readonly item: string;
  readonly price: number;
  readonly atMs: number;
}

export interface TalkCaptions {
  /** The caption file's text, as a caption source would download it. */
  readonly text: string;
  readonly format: "json3" | "vtt";
  readonly durationSeconds: number;
  readonly mentions: readonly Mention[];
}

/** Mulberry32: a small seeded generator, so a talk is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const items = [
  "kettle",
  "toaster",
  "blender",
  "air fryer",
  "espresso machine",
  "rice cooker",
  "stand mixer",
  "food processor",
  "slow cooker",
  "waffle iron",
  "milk frother",
  "juicer",
  "grill pan",
  "dutch oven",
  "chef's knife",
  "cutting board",
];

/** What a talk says between its items: the filler that makes up most of a transcript. */
const filler = [
  "so the first thing you want to think about is how often you actually cook at home",
  "and honestly I was really surprised by how well this one held up after a few months",
  "if you've been following the channel for a while you know I test everything in my own kitchen",
  "now let me show you what happens when we turn it up all the way",
  "the build quality feels solid and the buttons have a nice click to them",
  "one thing I didn't love is that the cord is pretty short so keep that in mind",
  "cleaning it is easy because most of the parts go straight into the dishwasher",
  "a lot of you asked in the comments whether this is worth the upgrade",
  "I'll put the links down below along with everything else I mentioned today",
  "it takes up a bit of counter space but I think it's worth it",
  "we made a batch of pancakes on Sunday and they came out perfectly golden",
  "the instructions were a little confusing at first but once you get it it's simple",
  "my kids use this every morning and it still works like the day we got it",
  "there is a newer version out but the differences are mostly cosmetic",
  "let's talk about noise because that's something people always ask about",
  "I measured it at around the same level as a normal conversation",
  "the warranty covers parts and labour which is more than most brands offer",
  "if you're on a budget there's a cheaper option that I'll mention at the end",
  "that's really the main thing that sets it apart from the competition",
  "okay let's move on to the next one because we have a lot to get through",
  "you can see the texture here is exactly what you want for a good sauce",
  "the app is optional and to be honest I never really used it",
  "I've had this one for about two years now and it's still going strong",
  "a quick tip is to preheat it for a couple of minutes before you start",
];

const ones = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const teens = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const tensWords = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** A whole number below 1,000 as an automatic track spells it out: `one hundred forty nine`. */
function spoken(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(ones[Math.floor(n / 100)] as string, "hundred");
  const rest = n % 100;
  if (rest >= 20) parts.push(`${tensWords[Math.floor(rest / 10)]}${rest % 10 ? ` ${ones[rest % 10]}` : ""}`);
  else if (rest >= 10) parts.push(teens[rest - 10] as string);
  else if (rest > 0) parts.push(ones[rest] as string);
  return parts.join(" ");
}

/** A timed word of the talk. */
interface Word {
  readonly text: string;
  readonly startMs: number;
  /** The item this word begins the name of, if it does. */
  readonly names?: { item: string; price: number };
  /** Whether a sentence ends after this word (a pause follows). */
  readonly sentenceEnd: boolean;
}

/**
 * The talk's words in time: sentences of filler, and every `mentionEvery` sentences an item with its
 * price. About 2.6 words a second, with a short pause between sentences, as a presenter speaks.
 */
function talkWords(durationSeconds: number, style: "auto" | "manual", random: () => number): Word[] {
  const words: Word[] = [];
  let at = 800;
  let sentence = 0;
  const endMs = durationSeconds * 1000 - 2000;
  while (at < endMs) {
    sentence++;
    let text: string;
    let names: { item: string; price: number } | undefined;
    if (sentence % 6 === 0) {
      const item = items[Math.floor(random() * items.length)] as string;
      const price = 20 + Math.floor(random() * 480);
      const said = style === "auto" && random() < 0.6 ? `${spoken(price)} dollars` : `$${price}`;
      text = `the ${item} I'm using here costs ${said} and you can find it in most stores`;
      names = { item, price };
    } else {
      text = filler[Math.floor(random() * filler.length)] as string;
    }
    if (style === "manual") text = `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
    const sentenceWords = text.split(" ");
    sentenceWords.forEach((word, i) => {
      const naming =
        names !== undefined &&
        word === names.item.split(" ")[0] &&
        sentenceWords[i - 1]?.toLowerCase() === "the";
      words.push({
        text: word,
        startMs: Math.round(at),
        ...(naming ? { names } : {}),
        sentenceEnd: i === sentenceWords.length - 1,
      });
      at += 300 + random() * 170;
    });
    at += 200 + random() * 900;
  }
  return words;
}

function mentionsOf(words: readonly Word[]): Mention[] {
  return words.flatMap((word) => (word.names ? [{ ...word.names, atMs: word.startMs }] : []));
}

/**
 * A YouTube automatic track: a window event, then cues of 3 to 8 words with each word's offset, shown until
 * the cue after next begins (the rolling two-line display), with a `\n` appended between cues.
 */
export function automaticTrack(durationSeconds: number, seed = 27): TalkCaptions {
  const random = seeded(seed);
  const words = talkWords(durationSeconds, "auto", random);
  const cues: Word[][] = [];
  for (let i = 0; i < words.length;) {
    const size = 3 + Math.floor(random() * 6);
    cues.push(words.slice(i, i + size));
    i += size;
  }
  const events: unknown[] = [
    { tStartMs: 0, dDurationMs: durationSeconds * 1000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
  ];
  cues.forEach((cue, i) => {
    const startMs = (cue[0] as Word).startMs;
    const showUntil = (cues[i + 2]?.[0]?.startMs ?? durationSeconds * 1000) - startMs;
    events.push({
      tStartMs: startMs,
      dDurationMs: showUntil,
      wWinId: 1,
      segs: cue.map((word, j) => ({
        utf8: j === 0 ? word.text : ` ${word.text}`,
        ...(j === 0 ? {} : { tOffsetMs: word.startMs - startMs }),
        acAsrConf: 0,
      })),
    });
    const next = cues[i + 1]?.[0]?.startMs;
    if (next !== undefined) {
      events.push({ tStartMs: next - 10, dDurationMs: 10, wWinId: 1, aAppend: 1, segs: [{ utf8: "\n" }] });
    }
  });
  const document = {
    wireMagic: "pb3",
    pens: [{}],
    wsWinStyles: [{}, { mhModeHint: 2, juJustifCode: 0, sdScrollDir: 3 }],
    wpWinPositions: [{}, { apPoint: 6, ahHorPos: 20, avVerPos: 100, rcRows: 2, ccCols: 40 }],
    events,
  };
  return { text: JSON.stringify(document), format: "json3", durationSeconds, mentions: mentionsOf(words) };
}

function vttTime(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(ms % 1000, 3)}`;
}

/**
 * A manual WebVTT track: cues of up to two lines of about 40 characters, cut at sentence ends, timed from
 * their first word to the next cue (or a moment after their last word, before a pause).
 */
export function manualTrack(durationSeconds: number, seed = 12): TalkCaptions {
  const random = seeded(seed);
  const words = talkWords(durationSeconds, "manual", random);
  const cues: Word[][] = [];
  let cue: Word[] = [];
  let length = 0;
  for (const word of words) {
    cue.push(word);
    length += word.text.length + 1;
    if (word.sentenceEnd || length > 70) {
      cues.push(cue);
      cue = [];
      length = 0;
    }
  }
  if (cue.length > 0) cues.push(cue);
  const blocks = cues.map((cueWords, i) => {
    const startMs = (cueWords[0] as Word).startMs;
    const last = cueWords[cueWords.length - 1] as Word;
    const endMs = Math.min(cues[i + 1]?.[0]?.startMs ?? last.startMs + 600, last.startMs + 600);
    const text = cueWords.map((word) => word.text).join(" ");
    // Two display lines, broken at the space nearest the middle.
    const middle = text.length > 42 ? text.indexOf(" ", Math.floor(text.length / 2) - 4) : -1;
    const shown = middle > 0 ? `${text.slice(0, middle)}\n${text.slice(middle + 1)}` : text;
    return `${i + 1}\n${vttTime(startMs)} --> ${vttTime(endMs)}\n${shown}`;
  });
  const text = `WEBVTT\nKind: captions\nLanguage: en\n\n${blocks.join("\n\n")}\n`;
  return { text, format: "vtt", durationSeconds, mentions: mentionsOf(words) };
}
