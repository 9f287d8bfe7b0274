// Reading the repository's Markdown as a reader's viewer does: code blocks, headings and their anchors, links.

/** A fenced code block: its info string (after the opening fence), the line before it, and its text. */
export interface CodeBlock {
  readonly info: string;
  readonly lineBefore: string;
  readonly text: string;
}

/** The fenced code blocks of `markdown`, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const opening = /^(`{3,})(.*)$/.exec(lines[i] as string);
    if (!opening) continue;
    const fence = opening[1] as string;
    const end = lines.findIndex((line, j) => j > i && line.startsWith(fence));
    const last = end === -1 ? lines.length : end;
    blocks.push({
      info: (opening[2] as string).trim(),
      lineBefore: i > 0 ? (lines[i - 1] as string) : "",
      text: lines.slice(i + 1, last).join("\n"),
    });
    i = last;
  }
  return blocks;
}

/** The text outside fenced code blocks and inline code spans, where links and headings live. */
export function prose(markdown: string): string {
  const lines = markdown.split("\n");
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && line.startsWith(fence)) fence = null;
    else if (fence === null) kept.push(line.replace(/`[^`]*`/g, "``"));
    else kept.push("");
  }
  return kept.join("\n");
}

/**
 * The anchors a heading gets on GitHub: lowercased, everything but letters, digits, spaces, `-` and `_`
 * dropped, spaces made hyphens, and a repeated heading suffixed `-1`, `-2`...
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const headings = markdown.split("\n").filter((line) => /^#{1,6} /.test(line));
  // Headings are read from the raw text but only outside code blocks, where a `#` is a shell comment.
  const proseHeadings = new Set(
    prose(markdown)
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line)),
  );
  for (const heading of headings) {
    if (!proseHeadings.has(heading.replace(/`[^`]*`/g, "``"))) continue;
    const slug = heading
      .replace(/^#+ /, "")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  for (const match of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  return anchors;
}

/** The targets of the inline links and images in the prose of `markdown`: `[text](target)`. */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (match) => match[1] as string,
  );
}

/**
 * The code block that follows the HTML comment `<!-- <marker> ... -->` (invisible to a reader), as its
 * commands: one entry a command, `\`-continued lines joined. Throws, naming the marker, when either is missing.
 */
export function markedCommands(markdown: string, file: string, marker: string): string[] {
  const at = markdown.indexOf(`<!-- ${marker}`);
  if (at === -1) throw new Error(`${file} has no "<!-- ${marker} -->" comment marking the block to run.`);
  const block = codeBlocks(markdown.slice(at))[0];
  const between = markdown.slice(at).split("```")[0]?.split("\n").slice(1).join("").trim();
  if (!block || between !== "" || !["sh", "bash", "shell"].includes(block.info)) {
    throw new Error(`${file}: the "${marker}" comment must be followed directly by a sh code block.`);
  }
  return block.text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
}
