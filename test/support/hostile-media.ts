// Files an uploader could send to make ffprobe or ffmpeg fetch from the network: playlists, concat lists and
// session descriptions that name a loopback canary, protocol strings as a whole body, and an MP4 whose
// samples are said to live at a URL. Each is a body to POST as is.
import { readFileSync } from "node:fs";

export interface HostileFile {
  readonly name: string;
  readonly body: Buffer;
}

/** The hostile files aimed at `port` on 127.0.0.1; `toneMp4` is a real MP4 (made by ffmpeg) to rewrite. */
export function hostileFiles(port: number, toneMp4: string): HostileFile[] {
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;
  const text = (name: string, lines: string[]) => ({ name, body: Buffer.from(`${lines.join("\n")}\n`) });
  return [
    text("an HLS playlist with an http segment", [
      ...["#EXTM3U", "#EXT-X-TARGETDURATION:3", "#EXTINF:3,", at("/seg.ts"), "#EXT-X-ENDLIST"],
    ]),
    text("an HLS playlist with a key URL and segments behind crypto+ and subfile", [
      ...["#EXTM3U", "#EXT-X-TARGETDURATION:3", `#EXT-X-KEY:METHOD=AES-128,URI="${at("/key")}"`],
      ...[
        "#EXTINF:3,",
        `crypto+${at("/seg1.ts")}`,
        "#EXTINF:3,",
        `subfile,,start,0,end,0,,:${at("/seg2.ts")}`,
      ],
      "#EXT-X-ENDLIST",
    ]),
    text("an HLS master playlist naming a variant", [
      ...["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=64000", at("/variant.m3u8")],
    ]),
    text("an ffconcat list of URLs", [
      ...[
        "ffconcat version 1.0",
        `file ${at("/seg.ts")}`,
        `file 'subfile,,start,0,end,0,,:${at("/seg2.ts")}'`,
      ],
    ]),
    text("an SDP file for RTP to loopback", [
      ...["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=call", "c=IN IP4 127.0.0.1", "t=0 0"],
      `m=audio ${port} RTP/AVP 0`,
    ]),
    text("subfile, tee: and concat: protocol strings", [
      `subfile,,start,0,end,0,,:${at("/seg.ts")}`,
      `tee:${at("/tee.ts")}`,
      `concat:${at("/a.ts")}|${at("/b.ts")}`,
    ]),
    {
      name: "an MP4 whose samples are referenced at a URL",
      body: externallyReferencedMp4(toneMp4, at("/samples.mp4")),
    },
  ];
}

/** Boxes that hold only boxes, on the way from `moov` down to `dref`. */
const containers = new Set(["moov", "trak", "mdia", "minf", "dinf", "stbl"]);
/** Past the end of any upload: no sample is read from the file itself. */
const nowhere = 0xffff_ff00;

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, payload]);
}

/** A chunk offset table (`stco`) with every offset moved to `nowhere`. */
function offsetsNowhere(payload: Buffer): Buffer {
  const moved = Buffer.from(payload);
  for (let at = 8; at + 4 <= moved.length; at += 4) moved.writeUInt32BE(nowhere, at);
  return moved;
}

/** Rebuilds `boxes` with every `dref` replaced by `dref`, every `mdat` dropped and chunks pointing nowhere. */
function rewrite(boxes: Buffer, dref: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; at + 8 <= boxes.length;) {
    const size = boxes.readUInt32BE(at);
    const type = boxes.toString("latin1", at + 4, at + 8);
    if (size < 8 || at + size > boxes.length) throw new Error(`unexpected ${type} box size ${size}`);
    const payload = boxes.subarray(at + 8, at + size);
    if (type === "dref") out.push(dref);
    else if (containers.has(type)) out.push(box(type, rewrite(payload, dref)));
    else if (type === "stco") out.push(box(type, offsetsNowhere(payload)));
    else if (type !== "mdat") out.push(box(type, payload));
    at += size;
  }
  return Buffer.concat(out);
}

/**
 * The MP4's own sample data removed (its chunks said to be past the file's end) and its data reference saying the samples are at `url` (a `url ` entry
 * not flagged self-contained): a reader that followed references would fetch them from there.
 */
function externallyReferencedMp4(path: string, url: string): Buffer {
  const entry = box("url ", Buffer.concat([Buffer.alloc(4), Buffer.from(`${url}\0`, "latin1")]));
  const count = Buffer.alloc(8);
  count.writeUInt32BE(1, 4);
  return rewrite(readFileSync(path), box("dref", Buffer.concat([count, entry])));
}
