// Generated from the server's GET /v1/openapi.json by scripts/generate-types.mjs: do not edit.
// Regenerate with `npm run generate -w @vidrows/client`; test/generated-types.test.ts fails when stale.

export interface paths {
    "/v1": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description Newest first. Never carries rows, so paging is safe.
         */
        get: operations["listJobs"];
        put?: never;
        /**
         * Submit a job
         * @description Exactly one of `schema` and `schema_id`. 403 `plan_limit` past the plan's videos per job; 402 when credits cannot pay; 503 `extraction_unavailable` without a model.
         */
        post: operations["submitJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a job
         * @description While running: counts, `results: null`. The first read after the job settles carries the rows, each done video's with `sources` (where each row came from in the video), and deletes them from storage once the whole answer has been written to the connection; later reads have `rows: null`. A read whose answer could not be written whole (the client went away) leaves the rows for the next read; so does one whose server process died mid-answer, after at most 60 seconds. A whole answer whose connection is reset within about a second puts the rows back once per job: the next whole answer hands them over for good. A read that arrives while another read's answer holds the rows answers `rows: null` with `rows_held: true`: read again in a moment (`rows_held: false` with `rows: null` means they were handed over).
         */
        get: operations["readJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Check a job (no handover)
         * @description The status and headers a read would answer, without a body. Never hands the rows over and never deletes anything: `Content-Length` is that of a read without rows.
         */
        head: operations["checkJob"];
        patch?: never;
        trace?: never;
    };
    "/v1/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description Videos not yet started fail at once with `cancelled` (never charged); within 2 seconds of this answer, on every worker, no model request of the job is sent any more and those in flight are aborted: their videos fail with `cancelled` too, unless they settled first. Answers the running read's shape; the job then settles as any job does, with its webhooks. Cancelling again while it runs answers the same; once settled, 409 `job_settled`.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{job_id}/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a job's videos
         * @description One item per video, in submission order: its status, and once settled its credits, with `usage` when done and `error` when failed. Never carries rows or submitted URLs and never hands anything over, before or after the job settles; `handed_over_at` says whether the rows were taken. `id` is null for the moment between the submission and a worker taking the job in.
         */
        get: operations["listJobVideos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Every key of the workspace, revoked ones included, newest first. Full keys are never listed.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The full key is in this response only; store it now. 403 `plan_limit` past the plan's allowance.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Immediate on every server; cannot be undone. Revoking a revoked key succeeds again.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read this OpenAPI document
         * @description The whole API as OpenAPI 3.1, generated from the schemas that validate requests. No key needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List saved schemas
         * @description Each at its latest version, newest first.
         */
        get: operations["listSchemas"];
        put?: never;
        /**
         * Save a schema
         * @description Publishes version 1. 409 `schema_name_taken` if the name is in use in the workspace.
         */
        post: operations["createSchema"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a saved schema
         * @description With `latest_version` and every version.
         */
        get: operations["readSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schemas/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a new version
         * @description Earlier versions never change. Jobs submitted with this `schema_id` and no `schema_version` use the new one.
         */
        post: operations["publishSchemaVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pending uploads
         * @description The workspace's uploads that no job has taken yet and that have not expired, newest first.
         */
        get: operations["listUploads"];
        put?: never;
        /**
         * Upload an audio or video file
         * @description The request body is the file itself, sent as `audio/*`, `video/*` or `application/octet-stream`. It is measured with ffprobe and ffmpeg and kept for `VIDROWS_UPLOAD_RETENTION_HOURS` unless deleted. 400 (`param: body`) for a file without an audio track or longer than the plan's longest video.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{upload_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a pending upload
         * @description Removes the upload and its file at once.
         */
        delete: operations["deleteUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read usage */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the hard cap
         * @description `hard_cap` caps the credits used in a cycle; submissions past it answer 402 `hard_cap_reached`.
         */
        patch: operations["updateUsage"];
        trace?: never;
    };
    "/v1/videos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a playlist's or channel's videos
         * @description Reads the listing from the platform (through yt-dlp) and answers its first `limit` videos; creates nothing and costs no credits. Submit what you want of it with `POST /v1`. 404 `listing_not_found` when there is nothing there (missing, private, or no such tab); 503 `listing_unavailable` when the server has no yt-dlp; 503 `platform_unavailable` (with `Retry-After`) when the platform refused or did not answer. A process runs a few listings at once, shared in turn between the workspaces that wait for one; 429 `rate_limited` (with `Retry-After`) when the workspace already has as many listings waiting on the server as it may (`VIDROWS_LISTING_QUEUE`).
         */
        get: operations["listVideos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Signing secrets are never listed.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description The signing secret is in this response only. 403 `plan_limit` on a plan without webhooks or past its endpoint count.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a webhook endpoint */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Pause or re-enable a webhook endpoint */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List delivery attempts
         * @description Every attempt made to the endpoint, newest first.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again
         * @description Queues the delivery's event (named by a `dlv_` or `att_` id from the list) for this endpoint again, with the same `webhook-id`.
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An API key as listed: never the full key. */
        ApiKey: {
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            /** @enum {string} */
            environment: "live" | "test";
            id: string;
            label: string;
            last_used_at: string | null;
            /** @example vr_live_****a1b2 */
            masked_key: string;
            revoked_at: string | null;
        };
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
        };
        CreatedApiKey: {
            id: string;
            /** @description The full key: shown this once. */
            key: string;
            label: string;
        };
        CreatedWebhookEndpoint: {
            id: string;
            /** @description The signing secret: shown this once. */
            secret: string;
            url: string;
        };
        /** @description One attempt to deliver an event to an endpoint. */
        DeliveryAttempt: {
            attempt: number;
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            /** @description The delivery (one event to this endpoint) it belongs to. */
            delivery_id: string;
            duration_ms: number;
            /** @description Why there was no answer. */
            error: string | null;
            event_id: string;
            event_type: components["schemas"]["WebhookEventType"];
            /** @description This attempt's id. */
            id: string;
            /** @description The receiver's answer, if any. */
            status_code: number | null;
        };
        DeliveryAttemptList: {
            data: components["schemas"]["DeliveryAttempt"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description A video whose rows were extracted. */
        DoneVideo: {
            /** @description The video's own id (`vid_...`), which the list's `search` matches. */
            id: string;
            /** @description The rows and their sources, in the one read that hands them over; null in every other read. */
            rows: components["schemas"]["VideoRows"] | null;
            /** @enum {string} */
            status: "done";
            usage: components["schemas"]["VideoUsage"];
            /** @description The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then. */
            video_id: string;
        };
        /** @description A video whose rows were extracted (the rows are not here). */
        DoneVideoProgress: {
            credits_charged: number;
            /** @description The video's own id (`vid_...`), which the list's `search` matches. */
            id: string;
            /** @enum {string} */
            status: "done";
            /** @description Where the video's words came from: `captions` (read from the platform), `transcription` (its audio transcribed, priced at the plan's transcription rate), or `reused` (a transcript this workspace kept from an earlier job of the same video, `language` and `transcribe`: no platform request, no transcription, priced as captions); null for videos settled before vidrows said so. */
            transcript: "captions" | "transcription" | "reused" | null;
            usage: components["schemas"]["VideoUsage"];
            /** @description The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then. */
            video_id: string;
        };
        /** @description The one shape of every error answer. */
        Error: {
            error: {
                /**
                 * @description Stable; branch on this. Each response lists the codes its status carries.
                 * @enum {string}
                 */
                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "listing_not_found" | "upload_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "job_settled" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "listing_unavailable" | "platform_unavailable" | "unavailable" | "insufficient_storage";
                /** @description For people; may change. */
                message: string;
                /** @description The input field to blame, when there is one. */
                param?: string;
                /** @description The `x-request-id` of the answer. */
                request_id: string;
            };
        };
        /** @description A video that failed; never charged. */
        FailedVideo: {
            /** @enum {integer} */
            credits_charged: 0;
            error: components["schemas"]["VideoError"];
            /** @description The video's own id (`vid_...`), which the list's `search` matches. */
            id: string;
            /** @description Always null: a failed video has no rows. */
            rows: components["schemas"]["VideoRows"] | null;
            /** @enum {string} */
            status: "failed";
            /** @description The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then. */
            video_id: string;
        };
        /** @description A video that failed; never charged. */
        FailedVideoProgress: {
            /** @enum {integer} */
            credits_charged: 0;
            error: components["schemas"]["VideoError"];
            /** @description The video's own id (`vid_...`), which the list's `search` matches. */
            id: string;
            /** @enum {string} */
            status: "failed";
            /** @description The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then. */
            video_id: string;
        };
        /** @description A job as `GET /v1/{job_id}` reads it: running or settled (branch on `status`). */
        Job: components["schemas"]["RunningJob"] | components["schemas"]["SettledJob"];
        /** @description The job's videos by state. */
        JobCounts: {
            done: number;
            failed: number;
            processing: number;
            queued: number;
        };
        /** @description A job just accepted (or, with `Idempotent-Replayed`, accepted before). */
        JobCreated: {
            counts: components["schemas"]["JobCounts"];
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            job_id: string;
            /** @description `<name>-v<version>` for a saved schema, `inline` otherwise. */
            schema: string;
            /** @enum {string} */
            status: "processing";
            videos: number;
        };
        JobList: {
            data: components["schemas"]["JobSummary"][];
            pagination: components["schemas"]["Pagination"];
        };
        /**
         * @description `processing` until every video settles; then `done` (all done), `failed` (all failed) or `partial`.
         * @enum {string}
         */
        JobStatus: "processing" | "done" | "failed" | "partial";
        /** @description A job as the list shows it: never with rows. */
        JobSummary: {
            /** @description When the job was cancelled (`POST /v1/{job_id}/cancel`), or null. A cancelled job settles as any job does (`failed`, or `partial` when some videos were done first); this says why. */
            cancelled_at: string | null;
            completed_at: string | null;
            counts: components["schemas"]["JobCounts"];
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            credits_charged: number;
            /** @description When the rows were handed over (the one read carrying them was written whole), or null: a settled job's rows are still there for one read. */
            handed_over_at: string | null;
            job_id: string;
            /** @description null while running; an empty list once settled. The list never carries rows. */
            results: unknown[] | null;
            schema: string;
            status: components["schemas"]["JobStatus"];
            videos: number;
        };
        /** @description A job's videos as they stand: never rows or submitted URLs, so reading it takes nothing. */
        JobVideoList: {
            /** @description One item per video, in submission order. */
            data: components["schemas"]["VideoProgress"][];
            /** @description When the rows were handed over (the one read carrying them was written whole), or null: a settled job's rows are still there for one read. */
            handed_over_at: string | null;
        };
        /** @description One video of a playlist or channel. */
        ListedVideo: {
            /** @description Its length as the listing gives it, rounded to the second; null when the listing does not say (live streams, some platforms). */
            duration_seconds: number | null;
            /** @description As the platform lists it; null if none. */
            title: string | null;
            /** @description The video's page: what to put in a job's `videos`. */
            url: string;
            /** @description The id a job would give the video: the bare 11-character id on YouTube, `<platform>:<id>` elsewhere. */
            video_id: string;
        };
        /** @description Where a page sits in the whole list. */
        Pagination: {
            has_more: boolean;
            limit: number;
            offset: number;
            total: number;
        };
        /** @description The version just published. */
        PublishedSchema: {
            id: string;
            name: string;
            version: number;
        };
        /** @description The delivery queued again. */
        ResentDelivery: {
            delivery_id: string;
            event_id: string;
        };
        /** @description Where a row came from, and the evidence: the caption lines the model named for it, checked against the transcript part it was read in (a span outside that part is clamped to it; a row the model gave no usable span for gets the whole part; a span wider than 90 seconds is narrowed to the one line, or two adjacent lines, whose text holds the most of the row's values). Rows settled before sources were kept get the whole video (0 to its `duration_seconds`). */
        RowSource: {
            /** @description Where that span ends, in seconds; never before `start_seconds`, never past the video's end (`usage.duration_seconds`). */
            end_seconds: number;
            /** @description The transcript text of the lines the row was drawn from, as the model saw it (caption lines joined by single spaces). Empty for rows settled before quotes were kept. */
            quote: string;
            /** @description Where the transcript span the row was drawn from starts, in seconds from the video's start (to the millisecond). */
            start_seconds: number;
            /** @description The row's columns, in the schema's order, whose string or number value `quote` does not contain: a value the model may have written without the transcript saying it. Case, accents, whitespace and punctuation do not count; numbers match by value however written (`$1,200.00`, `1200`, `twelve hundred`; `twelve`, `twenty-five`, `1.5 million`; sign aside). Booleans and values of enum columns are never checked. Rows settled before quotes were kept name every string or number column. */
            unverified: string[];
            /** @description Opens the video at the span's start, `<start>` being `start_seconds` rounded down to whole seconds: `https://www.youtube.com/watch?v=<video_id>&t=<start>s` on YouTube, the page with `#t=<start>s` on Vimeo, with `?start=<start>` on Dailymotion, a media file with `#t=<start>`; the plain page on platforms that cannot open a moment (TikTok, Instagram, X, Facebook and others). */
            url: string;
        };
        /** @description A job some of whose videos have not settled: counts, no results. */
        RunningJob: {
            counts: components["schemas"]["JobCounts"];
            job_id: string;
            /** @description Always null while the job runs: the results come once it has settled. */
            results: components["schemas"]["VideoResult"][] | null;
            /** @enum {string} */
            status: "processing";
            videos: number;
        };
        /** @description A saved schema at its latest version. */
        Schema: {
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            description: string;
            id: string;
            /** @example products-v2 */
            label: string;
            name: string;
            schema: components["schemas"]["SchemaDefinition"];
            /** @description The latest version. */
            version: number;
        };
        /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. A template column may also be typed: `{"description": "...", "type": "number", "enum": [...], "nullable": false}`. */
        SchemaDefinition: {
            columns: string[];
        } | {
            /** @description Column names mapped to what to put in each: a description (up to 500 characters), or a typed column. */
            template: {
                [key: string]: string | {
                    /** @description What to put in this column. */
                    description: string;
                    /** @description The only values the column may take, each of the column's type. */
                    enum?: (string | number | boolean)[];
                    /** @description Whether the column may be null when the transcript does not give it (default true); false makes the model always answer a value. */
                    nullable?: boolean;
                    /**
                     * @description The type of the column's values.
                     * @enum {string}
                     */
                    type: "string" | "number" | "integer" | "boolean";
                };
            };
        };
        /** @description A saved schema with every version. */
        SchemaDetail: {
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            description: string;
            id: string;
            label: string;
            latest_version: number;
            name: string;
            schema: components["schemas"]["SchemaDefinition"];
            version: number;
            /** @description Every version, oldest first. */
            versions: components["schemas"]["SchemaVersion"][];
        };
        SchemaList: {
            data: components["schemas"]["Schema"][];
        };
        SchemaVersion: {
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            description: string;
            label: string;
            schema: components["schemas"]["SchemaDefinition"];
            version: number;
        };
        /** @description A job whose videos have all settled, with each video's result. */
        SettledJob: {
            /** @description The schema's columns, in order: the keys of every row in `results`, given also when there are no rows (a table's header). */
            columns: string[];
            counts: components["schemas"]["JobCounts"];
            credits_charged: number;
            job_id: string;
            results: components["schemas"]["VideoResult"][];
            /** @description true when another read's answer is carrying the rows right now: this read's done videos have `rows: null`, but the rows are not handed over yet and come back if that answer does not get through, so read again in a moment. false otherwise: `rows: null` then means the rows were handed over (see `handed_over_at` in the list or `GET /v1/{job_id}/videos`). */
            rows_held: boolean;
            /** @enum {string} */
            status: "done" | "failed" | "partial";
            videos: number;
        };
        /** @description A file uploaded for a job, kept until `expires_at` or until deleted. (Jobs do not take uploads yet: `upload:<upload_id>` in `videos` is the next step.) */
        Upload: {
            /** @description The file's size as received. */
            bytes: number;
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            /** @description The seconds the file's audio spans, measured by ffmpeg from its packets (what a job is billed for). */
            duration_seconds: number;
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            expires_at: string;
            /** @example upl_01jd7x3k9q8f2m5n6p7r8s9t0v */
            upload_id: string;
        };
        UploadList: {
            data: components["schemas"]["Upload"][];
        };
        /** @description Credits, the billing cycle, the plan and job figures of the workspace. */
        Usage: {
            credits: {
                balance: number;
                cycle_allowance: number;
                /** @description Ceiling on credits used in a cycle, or null. */
                hard_cap: number | null;
                used_this_cycle: number;
            };
            cycle: {
                /**
                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                 * @example 2026-11-22 15:04:05
                 */
                ends_at: string;
                /**
                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                 * @example 2026-11-22 15:04:05
                 */
                started_at: string;
            };
            /** @description The last 14 UTC days, oldest first, ending today. */
            daily: {
                credits: number;
                /** @example 2026-11-22 */
                date: string;
            }[];
            /** @description Failed videos counted by error code. */
            failures_by_code: {
                [key: string]: number;
            };
            jobs: {
                done: number;
                failed: number;
                processing: number;
                queued: number;
                total: number;
            };
            plan: {
                id: string;
                name: string;
                requests_per_minute: number;
            };
            videos_processed: number;
        };
        /** @description Why a video failed. */
        VideoError: {
            /**
             * @description `no_captions`: the video has no captions (in the language asked); `video_unavailable`: private, removed, or not a video; `captions_unavailable`: the platform kept the captions from us; `transcription_failed`: speech-to-text failed; `extraction_failed`: the model failed; `insufficient_credits`: the balance could not pay for it; `hard_cap_reached`: paying would cross the hard cap; `cancelled`: the job was cancelled first.
             * @enum {unknown}
             */
            code: "no_captions" | "video_unavailable" | "captions_unavailable" | "transcription_failed" | "extraction_failed" | "insufficient_credits" | "hard_cap_reached" | "cancelled";
            message: string;
            retryable: boolean;
        };
        /** @description The videos of a playlist or channel; nothing is created. */
        VideoListing: {
            /** @description At most `limit` videos, in the listing's order (newest first for a channel's tab, the playlist's own order for a playlist). */
            data: components["schemas"]["ListedVideo"][];
            /** @description Whether the listing holds more videos than `limit`. */
            has_more: boolean;
        };
        /** @description One video of a job as it stands (branch on `status`). */
        VideoProgress: components["schemas"]["WaitingVideoProgress"] | components["schemas"]["DoneVideoProgress"] | components["schemas"]["FailedVideoProgress"];
        VideoResult: components["schemas"]["DoneVideo"] | components["schemas"]["FailedVideo"];
        /** @description A done video's rows and where each came from, handed over once and then deleted with them. */
        VideoRows: {
            /** @description The rows: each object's keys are exactly the schema's columns. */
            results: {
                [key: string]: string | number | boolean | null;
            }[];
            /** @description As long as `results`: `sources[i]` says where `results[i]` came from. */
            sources: components["schemas"]["RowSource"][];
        };
        /** @description What a done video cost and gave. */
        VideoUsage: {
            chunk_count: number;
            credits_charged: number;
            duration_seconds: number;
            row_count: number;
        };
        /** @description A video not yet settled. */
        WaitingVideoProgress: {
            /** @description The video's own id (`vid_...`); null for the moment between the submission and a worker taking the job in. */
            id: string | null;
            /** @enum {string} */
            status: "queued" | "processing";
            /** @description The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then. */
            video_id: string;
        };
        /** @description A webhook endpoint: never its signing secret. */
        WebhookEndpoint: {
            /**
             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
             * @example 2026-11-22 15:04:05
             */
            created_at: string;
            disabled: boolean;
            events: components["schemas"]["WebhookEventType"][];
            id: string;
            url: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /** @enum {string} */
        WebhookEventType: "job.completed" | "job.failed" | "batch.completed";
    };
    responses: {
        /** @description The path exists, but not with this method: `method_not_allowed`. `Allow` lists the methods it takes. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The methods the path does take, comma-separated. */
        Allow: string;
        /** @description `true` when this is the first answer to the same `Idempotency-Key`, sent again. */
        IdempotentReplayed: "true";
        /** @description Requests allowed in the current minute. */
        RateLimitLimit: number;
        /** @description Requests left in the current minute. */
        RateLimitRemaining: number;
        /** @description Seconds until the minute starts over. */
        RateLimitReset: number;
        /** @description This request's id (the client's own `x-request-id` when it is sane); quote it in support requests. */
        RequestId: string;
        /** @description Seconds to wait before trying again. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listJobs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description The start of a job id, a video's `vid_` id or its `video_id` (a YouTube id, or `<platform>:<id>` such as `vimeo:` for every Vimeo video). */
                search?: string;
                status?: "running" | "succeeded" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of jobs. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    submitJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 hours answer the first response again and create nothing. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of `schema` (inline) and `schema_id` (saved). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "videos": [
                 *         "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                 *         "jNQXAC9IVRw"
                 *       ],
                 *       "schema": {
                 *         "template": {
                 *           "product": "The product named",
                 *           "price": {
                 *             "description": "Its price in US dollars",
                 *             "type": "number"
                 *           }
                 *         }
                 *       },
                 *       "language": "en"
                 *     }
                 */
                "application/json": {
                    /** @description Preferred caption language (BCP-47); default: the video's own. */
                    language?: string;
                    /** @description Whether a video's transcript that this workspace kept from an earlier job (same video, `language` and `transcribe`, within the server's retention) is used instead of reading the video again; default true. `false` reads afresh (and keeps the new transcript). */
                    reuse?: boolean;
                    /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. A template column may also be typed: `{"description": "...", "type": "number", "enum": [...], "nullable": false}`. */
                    schema: {
                        columns: string[];
                    } | {
                        /** @description Column names mapped to what to put in each: a description (up to 500 characters), or a typed column. */
                        template: {
                            [key: string]: string | {
                                /** @description What to put in this column. */
                                description: string;
                                /** @description The only values the column may take, each of the column's type. */
                                enum?: (string | number | boolean)[];
                                /** @description Whether the column may be null when the transcript does not give it (default true); false makes the model always answer a value. */
                                nullable?: boolean;
                                /**
                                 * @description The type of the column's values.
                                 * @enum {string}
                                 */
                                type: "string" | "number" | "integer" | "boolean";
                            };
                        };
                    };
                    /**
                     * @description When to transcribe a video's audio (speech-to-text, priced per minute by the plan): `auto` (the default) when it has no usable captions, `never`, or `always`, captions or not.
                     * @enum {string}
                     */
                    transcribe?: "auto" | "never" | "always";
                    /** @description YouTube URLs (watch?v=, youtu.be/, shorts/, embed/, live/, m., music.) or 11-character video ids; where the server has yt-dlp, also the https:// URL of a video on Vimeo, Dailymotion, TikTok, X, Instagram or Facebook (a page of theirs that names no video is 400) or of any other page yt-dlp reads (docs/platforms.md); or `upload:<upload_id>`, a file of this workspace from POST /v1/uploads that no job has taken (400 naming the element otherwise; one job per upload), whose video_id is that same string. Each exactly as sent: whitespace or an invisible character around or inside one is 400. */
                    videos: string[];
                } | {
                    /** @description Preferred caption language (BCP-47); default: the video's own. */
                    language?: string;
                    /** @description Whether a video's transcript that this workspace kept from an earlier job (same video, `language` and `transcribe`, within the server's retention) is used instead of reading the video again; default true. `false` reads afresh (and keeps the new transcript). */
                    reuse?: boolean;
                    /** @description A saved schema's id. */
                    schema_id: string;
                    /** @description Default: the latest at submission. */
                    schema_version?: number;
                    /**
                     * @description When to transcribe a video's audio (speech-to-text, priced per minute by the plan): `auto` (the default) when it has no usable captions, `never`, or `always`, captions or not.
                     * @enum {string}
                     */
                    transcribe?: "auto" | "never" | "always";
                    /** @description YouTube URLs (watch?v=, youtu.be/, shorts/, embed/, live/, m., music.) or 11-character video ids; where the server has yt-dlp, also the https:// URL of a video on Vimeo, Dailymotion, TikTok, X, Instagram or Facebook (a page of theirs that names no video is 400) or of any other page yt-dlp reads (docs/platforms.md); or `upload:<upload_id>`, a file of this workspace from POST /v1/uploads that no job has taken (400 naming the element otherwise; one job per upload), whose video_id is that same string. Each exactly as sent: whitespace or an invisible character around or inside one is 400. */
                    videos: string[];
                };
            };
        };
        responses: {
            /** @description Accepted: the job runs in the background. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobCreated"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Credits cannot pay: `insufficient_credits`, `hard_cap_reached`. */
            402: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "insufficient_credits" | "hard_cap_reached";
                        };
                    };
                };
            };
            /** @description Over a limit of the plan: `plan_limit`. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "plan_limit";
                        };
                    };
                };
            };
            /** @description Not found: `schema_not_found`, `schema_version_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "schema_not_found" | "schema_version_not_found";
                        };
                    };
                };
            };
            /** @description Conflict: `idempotency_conflict`. */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "idempotency_conflict";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `extraction_unavailable`, `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "extraction_unavailable" | "unavailable";
                        };
                    };
                };
            };
        };
    };
    readJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, running or settled. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `job_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "job_not_found";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    checkJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job exists; a GET would answer with it. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `job_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled: the job's counts as the cancellation left them. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunningJob"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `job_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "job_not_found";
                        };
                    };
                };
            };
            /** @description Conflict: `job_settled`. */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "job_settled";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listJobVideos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job's videos. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobVideoList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `job_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "job_not_found";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's keys. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    environment?: "live" | "test";
                    label?: string;
                    /** @description For you; never shown in lists. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Created; the full key is in this answer only. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over a limit of the plan: `plan_limit`. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "plan_limit";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; no body. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `key_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "key_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The saved schemas. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchemaList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    createSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    name: string;
                    /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. A template column may also be typed: `{"description": "...", "type": "number", "enum": [...], "nullable": false}`. */
                    schema: {
                        columns: string[];
                    } | {
                        /** @description Column names mapped to what to put in each: a description (up to 500 characters), or a typed column. */
                        template: {
                            [key: string]: string | {
                                /** @description What to put in this column. */
                                description: string;
                                /** @description The only values the column may take, each of the column's type. */
                                enum?: (string | number | boolean)[];
                                /** @description Whether the column may be null when the transcript does not give it (default true); false makes the model always answer a value. */
                                nullable?: boolean;
                                /**
                                 * @description The type of the column's values.
                                 * @enum {string}
                                 */
                                type: "string" | "number" | "integer" | "boolean";
                            };
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Saved as version 1. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishedSchema"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Conflict: `schema_name_taken`. */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "schema_name_taken";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    readSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schema and its versions. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchemaDetail"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `schema_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "schema_not_found";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    publishSchemaVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. A template column may also be typed: `{"description": "...", "type": "number", "enum": [...], "nullable": false}`. */
                    schema: {
                        columns: string[];
                    } | {
                        /** @description Column names mapped to what to put in each: a description (up to 500 characters), or a typed column. */
                        template: {
                            [key: string]: string | {
                                /** @description What to put in this column. */
                                description: string;
                                /** @description The only values the column may take, each of the column's type. */
                                enum?: (string | number | boolean)[];
                                /** @description Whether the column may be null when the transcript does not give it (default true); false makes the model always answer a value. */
                                nullable?: boolean;
                                /**
                                 * @description The type of the column's values.
                                 * @enum {string}
                                 */
                                type: "string" | "number" | "integer" | "boolean";
                            };
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The new version. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishedSchema"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `schema_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "schema_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listUploads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pending uploads. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file's bytes. */
        requestBody: {
            content: {
                "application/octet-stream": string;
                "audio/*": string;
                "video/*": string;
            };
        };
        responses: {
            /** @description Stored and measured. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over a limit of the plan: `plan_limit`. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "plan_limit";
                        };
                    };
                };
            };
            /** @description The file is over the plan's upload limit: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not declared as audio/*, video/* or application/octet-stream, is compressed, or is not audio or video ffmpeg reads: `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
            /** @description The upload storage has too little free space for the file: `insufficient_storage`. */
            507: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "insufficient_storage";
                        };
                    };
                };
            };
        };
    };
    deleteUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `upload_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "upload_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's usage. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    updateUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    hard_cap: number | null;
                };
            };
        };
        responses: {
            /** @description The usage, with the new `hard_cap`. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listVideos: {
        parameters: {
            query: {
                /** @description A YouTube playlist (`https://www.youtube.com/playlist?list=...`, or a watch URL with `list=`) or channel (`/@handle`, `/channel/UC...`, `/c/name`, `/user/name`, optionally with its `/videos`, `/shorts` or `/streams` tab; without one, the Videos tab), or the https:// page of a playlist on another platform that yt-dlp reads. */
                from: string;
                /** @description The most videos to list, from the start of the listing. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The listing's first videos. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoListing"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `listing_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "listing_not_found";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `listing_unavailable`, `platform_unavailable`, `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "listing_unavailable" | "platform_unavailable" | "unavailable";
                        };
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default: all three. */
                    events?: ("job.completed" | "job.failed" | "batch.completed")[];
                    /** @description An https:// URL without a user name or password, exactly as sent: whitespace or an invisible character around or inside it is 400. With VIDROWS_WEBHOOK_ALLOW_PRIVATE=1 (development), http:// is accepted for localhost and literal loopback or private addresses. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created; the signing secret is in this answer only. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Over a limit of the plan: `plan_limit`. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "plan_limit";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; no body. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `webhook_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "webhook_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `false` re-enables a disabled endpoint; `true` pauses it. */
                    disabled: boolean;
                };
            };
        };
        responses: {
            /** @description The endpoint as it now is. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `webhook_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "webhook_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptList"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `webhook_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "webhook_not_found";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued again. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResentDelivery"];
                };
            };
            /** @description The request is not valid: `invalid_request`. */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "invalid_request";
                        };
                    };
                };
            };
            /** @description No usable API key: `unauthorized`. */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description Not found: `webhook_not_found`, `delivery_not_found`. */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "webhook_not_found" | "delivery_not_found";
                        };
                    };
                };
            };
            /** @description The body is over 1 MiB: `payload_too_large`. */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "payload_too_large";
                        };
                    };
                };
            };
            /** @description The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8): `unsupported_media_type`. */
            415: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again: `rate_limited`. */
            429: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "rate_limited";
                        };
                    };
                };
            };
            /** @description A bug on our side: `internal_error`. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description Unavailable for now: `unavailable`. */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error: {
                            /** @enum {unknown} */
                            code: "unavailable";
                        };
                    };
                };
            };
        };
    };
}
