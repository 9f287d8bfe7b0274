// Submit a job: videos pasted one a line or listed from a playlist or channel, and files of one's own
// uploaded, the columns typed in or a saved schema (and version), a language, when to transcribe, and
// whether transcripts kept from earlier jobs may serve.
import { useState } from "preact/hooks";
import { ErrorMessage } from "../components/error-message.js";
import { blames, FieldError, fixing } from "../components/field-error.js";
import { FilePicker } from "../components/file-picker.js";
import { Link } from "../components/link.js";
import { PlaylistListing } from "../components/playlist-listing.js";
import {
  ColumnLineError,
  columnsSchemaOf,
  type SchemaChoice,
  submitBodyOf,
  type TranscribeChoice,
  withListedVideos,
} from "../lib/job-form.js";
import { navigate } from "../lib/router.js";
import { useAction, useApi } from "../lib/use-api.js";
import { useFileUploads } from "../lib/use-file-uploads.js";

type SchemaKind = SchemaChoice["kind"];

const transcribeChoices: readonly { value: TranscribeChoice; label: string }[] = [
  { value: "auto", label: "When a video has no captions" },
  { value: "never", label: "Never" },
  { value: "always", label: "Always" },
];

export function NewJobPage() {
  const [videos, setVideos] = useState("");
  const [kind, setKind] = useState<SchemaKind>("columns");
  const [columns, setColumns] = useState("");
  const [schemaId, setSchemaId] = useState("");
  const [version, setVersion] = useState("");
  const [language, setLanguage] = useState("");
  const [transcribe, setTranscribe] = useState<TranscribeChoice>("auto");
  const [reuse, setReuse] = useState(true);
  const [formError, setFormError] = useState<string | null>(null);
  const uploads = useFileUploads();
  const saved = useApi((client, signal) => client.schemas.list({ signal }), []);
  const chosen = saved.data?.data.find((schema) => schema.id === schemaId);
  const submit = useAction((client, body: Parameters<typeof client.jobs.submit>[0]) =>
    client.jobs.submit(body),
  );

  const send = async (event: Event) => {
    event.preventDefault();
    setFormError(null);
    const choice: SchemaChoice =
      kind === "columns"
        ? { kind, text: columns }
        : { kind, schemaId, version: version === "" ? null : Number(version) };
    let body;
    try {
      body = submitBodyOf(videos, choice, { language, transcribe, reuse }, uploads.videos);
    } catch (error) {
      if (error instanceof ColumnLineError) return setFormError(error.message);
      throw error;
    }
    const created = await submit.run(body);
    if (created) navigate(`/jobs/${encodeURIComponent(created.job_id)}`);
  };
  /** A line the form could not read is checked again as it is edited: its message goes once it reads. */
  const changeColumns = (text: string) => {
    setColumns(text);
    fixing(submit, "schema");
    if (formError === null) return;
    try {
      columnsSchemaOf(text);
      setFormError(null);
    } catch (error) {
      if (error instanceof ColumnLineError) setFormError(error.message);
      else throw error;
    }
  };
  const error = submit.error;
  const placed =
    blames(error, "videos") ||
    blames(error, "schema") ||
    blames(error, "schema_id") ||
    blames(error, "language") ||
    blames(error, "transcribe") ||
    blames(error, "reuse");
  return (
    <>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link>
      </p>
      <h1>New job</h1>
      <form onSubmit={send} noValidate class="stacked">
        <PlaylistListing onListed={(urls) => setVideos((text) => withListedVideos(text, urls))} />
        <div class="field">
          <label for="job-videos">Videos</label>
          <p class="hint" id="job-videos-hint">
            One video URL or 11-character YouTube id a line.
          </p>
          <textarea
            id="job-videos"
            rows={5}
            value={videos}
            spellcheck={false}
            aria-invalid={blames(error, "videos")}
            aria-describedby={
              blames(error, "videos") ? "job-videos-hint job-videos-error" : "job-videos-hint"
            }
            onInput={(event) => {
              setVideos(event.currentTarget.value);
              fixing(submit, "videos");
            }}
          />
          <FieldError error={error} field="videos" id="job-videos-error" />
        </div>
        <FilePicker uploads={uploads} />
        <fieldset class="choice">
          <legend>Schema</legend>
          <label>
            <input
              type="radio"
              name="schema-kind"
              checked={kind === "columns"}
              onChange={() => setKind("columns")}
            />{" "}
            Typed below
          </label>
          <label>
            <input
              type="radio"
              name="schema-kind"
              checked={kind === "saved"}
              onChange={() => setKind("saved")}
            />{" "}
            Saved
          </label>
        </fieldset>
        {kind === "columns" ? (
          <div class="field">
            <label for="job-columns">Columns</label>
            <p class="hint" id="job-columns-hint">
              One column a line: <code>name</code>, or <code>name: what to put in it</code>, or with a type,{" "}
              <code>price (number): the price in dollars</code>. Types: string, number, integer, boolean. A
              typed column always gets a value; add <code>?</code> (<code>number?</code>) when it may be
              missing.
            </p>
            <textarea
              id="job-columns"
              rows={4}
              value={columns}
              spellcheck={false}
              aria-invalid={formError !== null || blames(error, "schema")}
              aria-describedby={
                formError !== null || blames(error, "schema")
                  ? "job-columns-hint job-columns-error"
                  : "job-columns-hint"
              }
              onInput={(event) => changeColumns(event.currentTarget.value)}
            />
            {formError !== null && (
              <div class="error" role="alert" id="job-columns-error">
                <p>{formError}</p>
              </div>
            )}
            {formError === null && <FieldError error={error} field="schema" id="job-columns-error" />}
          </div>
        ) : (
          <div class="field-row">
            <div class="field">
              <label for="job-schema">Saved schema</label>
              <select
                id="job-schema"
                value={schemaId}
                aria-invalid={blames(error, "schema_id")}
                onChange={(event) => {
                  setSchemaId(event.currentTarget.value);
                  setVersion("");
                  fixing(submit, "schema_id");
                }}
              >
                <option value="">Choose a schema</option>
                {saved.data?.data.map((schema) => (
                  <option key={schema.id} value={schema.id}>
                    {schema.name}
                  </option>
                ))}
              </select>
              <FieldError error={error} field="schema_id" id="job-schema-error" />
            </div>
            <div class="field">
              <label for="job-schema-version">Version</label>
              <select
                id="job-schema-version"
                value={version}
                disabled={!chosen}
                onChange={(event) => setVersion(event.currentTarget.value)}
              >
                <option value="">Latest{chosen ? ` (v${chosen.version})` : ""}</option>
                {chosen &&
                  Array.from({ length: chosen.version }, (_, i) => chosen.version - i).map((n) => (
                    <option key={n} value={String(n)}>
                      v{n}
                    </option>
                  ))}
              </select>
            </div>
            <ErrorMessage error={saved.error} />
          </div>
        )}
        <div class="field">
          <label for="job-language">Language</label>
          <p class="hint" id="job-language-hint">
            Optional: the captions' preferred language as a tag such as <code>en</code> or <code>pt-BR</code>.
            Empty: each video's own.
          </p>
          <input
            id="job-language"
            value={language}
            spellcheck={false}
            autocomplete="off"
            aria-invalid={blames(error, "language")}
            aria-describedby={
              blames(error, "language") ? "job-language-hint job-language-error" : "job-language-hint"
            }
            onInput={(event) => {
              setLanguage(event.currentTarget.value);
              fixing(submit, "language");
            }}
          />
          <FieldError error={error} field="language" id="job-language-error" />
        </div>
        <fieldset class="choice" aria-describedby="job-transcribe-hint">
          <legend>Transcription</legend>
          <p class="hint" id="job-transcribe-hint">
            Speech-to-text of a video's audio, where this server has it set up; a transcribed minute costs the
            plan's transcription price.
          </p>
          {transcribeChoices.map((choice) => (
            <label key={choice.value}>
              <input
                type="radio"
                name="transcribe"
                value={choice.value}
                checked={transcribe === choice.value}
                onChange={() => {
                  setTranscribe(choice.value);
                  fixing(submit, "transcribe");
                }}
              />{" "}
              {choice.label}
            </label>
          ))}
        </fieldset>
        <FieldError error={error} field="transcribe" id="job-transcribe-error" />
        <div class="field">
          <div class="check">
            <input
              type="checkbox"
              id="job-reuse"
              checked={reuse}
              aria-invalid={blames(error, "reuse")}
              aria-describedby={blames(error, "reuse") ? "job-reuse-hint job-reuse-error" : "job-reuse-hint"}
              onChange={(event) => {
                setReuse(event.currentTarget.checked);
                fixing(submit, "reuse");
              }}
            />
            <label for="job-reuse">Reuse kept transcripts</label>
          </div>
          <p class="hint" id="job-reuse-hint">
            A video this workspace read in an earlier job, with the same language and transcription choice, is
            not fetched or transcribed again while the server keeps its transcript (a day unless set
            otherwise): it is priced as captions. Untick to read every video afresh.
          </p>
          <FieldError error={error} field="reuse" id="job-reuse-error" />
        </div>
        {!placed && <ErrorMessage error={error} />}
        <button type="submit" disabled={submit.busy || uploads.uploading}>
          Submit job
        </button>
        {uploads.uploading && !submit.busy && <p role="status">Waiting for the files to upload…</p>}
        {submit.busy && <p role="status">Submitting…</p>}
      </form>
    </>
  );
}
