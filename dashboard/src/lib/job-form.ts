// The new-job form's text fields as the API takes them: videos one a line, and columns one a line, each
// `name`, `name: description` or `name (type): description`, giving plain columns or a typed template. A typed
// column is required (`nullable: false`) unless its type ends in `?` (`number?`): the API's default is optional,
// so the form says which it is either way.
import type { SchemaDefinition, SubmitJobBody } from "@vidrows/client";

type TemplateColumn = Extract<SchemaDefinition, { template: unknown }>["template"][string];
type ColumnType = Exclude<TemplateColumn, string>["type"];
const columnTypes: readonly ColumnType[] = ["string", "number", "integer", "boolean"];

/** A line the form cannot turn into a column, named by its number, for the person to fix. */
export class ColumnLineError extends Error {}

/** The pasted videos: one id or URL a line, blank lines dropped. Each is sent exactly as written otherwise. */
export function videosOf(text: string): string[] {
  // Only the line breaks (and the spaces a paste leaves at a line's ends) are the form's; the server
  // judges what is left, and refuses an id with a space inside, naming it.
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

const columnLine = /^([^():]+?)\s*(?:\(\s*([a-z]+)(\??)\s*\))?\s*(?::\s*(.*))?$/;

/** The schema the columns' lines describe: plain columns when none has a description or a type. */
export function columnsSchemaOf(text: string): SchemaDefinition {
  const columns = text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== "")
    .map(({ line, number }) => {
      const match = columnLine.exec(line);
      if (!match) throw new ColumnLineError(`Line ${number} of Columns is not "name (type): description".`);
      const [, name = "", type, nullable, description = ""] = match;
      if (type !== undefined && !columnTypes.includes(type as ColumnType)) {
        throw new ColumnLineError(
          `Line ${number} of Columns has the type "${type}"; use string, number, integer or boolean.`,
        );
      }
      return { name, type: type as ColumnType | undefined, nullable: nullable === "?", description };
    });
  if (columns.every((column) => column.type === undefined && column.description === "")) {
    return { columns: columns.map((column) => column.name) };
  }
  return {
    template: Object.fromEntries(
      columns.map((column): [string, TemplateColumn] => [
        column.name,
        column.type === undefined
          ? column.description || column.name
          : {
              description: column.description || column.name,
              type: column.type,
              nullable: column.nullable,
            },
      ]),
    ),
  };
}

/** The videos text with `urls` added, one a line, after those already there; a video already there is not added twice. */
export function withListedVideos(text: string, urls: readonly string[]): string {
  const present = new Set(videosOf(text));
  const added = urls.filter((url) => !present.has(url));
  if (added.length === 0) return text;
  const kept = text.replace(/\s+$/, "");
  return `${kept === "" ? "" : `${kept}\n`}${[...new Set(added)].join("\n")}\n`;
}

/** When the job transcribes a video's audio: `auto` (only without captions, the server's default), never, always. */
export type TranscribeChoice = NonNullable<SubmitJobBody["transcribe"]>;

/** Where the job's schema comes from: the columns typed in, or a saved schema (and a version, or the latest). */
export type SchemaChoice =
  | { readonly kind: "columns"; readonly text: string }
  | { readonly kind: "saved"; readonly schemaId: string; readonly version: number | null };

/** How the job reads its videos' words: the caption language, when to transcribe, whether kept transcripts serve. */
export interface ReadingChoices {
  readonly language: string;
  readonly transcribe: TranscribeChoice;
  /** Use a transcript this workspace kept from an earlier job of the same video (the server's default). */
  readonly reuse: boolean;
}

/**
 * The body of `POST /v1` for the form as filled in, the videos typed in first and then the uploaded files'
 * (`upload:<upload_id>`); throws ColumnLineError for a line it cannot read.
 */
export function submitBodyOf(
  videosText: string,
  schema: SchemaChoice,
  { language, transcribe, reuse }: ReadingChoices,
  uploadedVideos: readonly string[] = [],
): SubmitJobBody {
  const videos = [...videosOf(videosText), ...uploadedVideos];
  const languagePart = {
    ...(language.trim() === "" ? {} : { language: language.trim() }),
    // `auto` and reusing are the server's defaults: left out, so the body says only what the person chose.
    ...(transcribe === "auto" ? {} : { transcribe }),
    ...(reuse ? {} : { reuse: false }),
  };
  if (schema.kind === "saved") {
    return {
      videos,
      schema_id: schema.schemaId,
      ...(schema.version === null ? {} : { schema_version: schema.version }),
      ...languagePart,
    };
  }
  return { videos, schema: columnsSchemaOf(schema.text), ...languagePart };
}
