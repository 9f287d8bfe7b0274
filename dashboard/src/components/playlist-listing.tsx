// "From a playlist or channel": lists a playlist's or channel's videos through the server (free, nothing
// created) and hands their URLs to the form, showing how many, their titles and whether there are more.
import type { VideoListing, VideoListingQuery } from "@vidrows/client";
import { useState } from "preact/hooks";
import { formatVideoTime } from "../lib/format.js";
import { useAction } from "../lib/use-api.js";
import { ErrorMessage } from "./error-message.js";

const maxListed = 1000;

export function PlaylistListing({ onListed }: { onListed: (urls: string[]) => void }) {
  const [from, setFrom] = useState("");
  const [limit, setLimit] = useState("100");
  const [listing, setListing] = useState<VideoListing | null>(null);
  const list = useAction((client, query: VideoListingQuery) => client.videos.list(query));

  const run = async () => {
    setListing(null);
    const answer = await list.run({ from: from.trim(), limit: Number(limit) });
    if (answer === undefined) return;
    setListing(answer);
    onListed(answer.data.map((video) => video.url));
  };
  const failed = list.error !== null;
  return (
    <div class="field listing">
      <label for="job-from">From a playlist or channel</label>
      <p class="hint" id="job-from-hint">
        Optional: a YouTube playlist or channel URL (<code>/@name</code>, or a tab such as{" "}
        <code>/@name/shorts</code>), or another platform's playlist page. “List videos” adds its videos to
        Videos below. Listing costs nothing.
      </p>
      <div class="field-row">
        <div class="field listing-from">
          <input
            id="job-from"
            type="url"
            value={from}
            spellcheck={false}
            autocomplete="off"
            placeholder="https://www.youtube.com/@channel"
            aria-invalid={failed}
            aria-describedby={failed ? "job-from-hint job-from-error" : "job-from-hint"}
            onInput={(event) => setFrom(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Enter lists rather than submitting the whole form half-filled.
              if (event.key !== "Enter") return;
              event.preventDefault();
              if (from.trim() !== "" && !list.busy) void run();
            }}
          />
        </div>
        <div class="field">
          <label for="job-from-limit">At most</label>
          <input
            id="job-from-limit"
            type="number"
            min={1}
            max={maxListed}
            value={limit}
            class="narrow"
            onInput={(event) => setLimit(event.currentTarget.value)}
          />
        </div>
        <button type="button" onClick={() => void run()} disabled={list.busy || from.trim() === ""}>
          List videos
        </button>
      </div>
      {list.busy && <p role="status">Listing videos…</p>}
      <ErrorMessage error={list.error} id="job-from-error" />
      {listing !== null && (
        <div role="status" class="listed">
          <p>
            {listing.data.length === 1 ? "1 video" : `${listing.data.length} videos`} listed and added to
            Videos
            {listing.has_more
              ? `; the playlist or channel has more: raise “At most” (up to ${maxListed}) to list them.`
              : "."}
          </p>
          {listing.data.length > 0 && (
            <ol class="listed-titles" tabIndex={0} aria-label="Listed videos">
              {listing.data.map((video) => (
                <li key={video.video_id}>
                  {video.title ?? video.video_id}
                  {video.duration_seconds !== null && (
                    <span class="hint"> ({formatVideoTime(video.duration_seconds)})</span>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </div>
  );
}
