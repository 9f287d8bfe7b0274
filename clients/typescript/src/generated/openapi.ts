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
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    /** @description The start of a job id, a video id or a YouTube video id. */
                    search?: string;
                    status?: "running" | "succeeded" | "failed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description List jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                completed_at: string | null;
                                counts: {
                                    done: number;
                                    failed: number;
                                    processing: number;
                                    queued: number;
                                };
                                /**
                                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                                 * @example 2026-11-22 15:04:05
                                 */
                                created_at: string;
                                credits_charged: number;
                                job_id: string;
                                /** @description null while running; an empty list once settled. The list never carries rows. */
                                results: unknown[] | null;
                                schema: string;
                                status: "processing" | "done" | "failed" | "partial";
                                videos: number;
                            }[];
                            pagination: {
                                has_more: boolean;
                                limit: number;
                                offset: number;
                                total: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Submit a job
         * @description Exactly one of `schema` and `schema_id`. 403 `plan_limit` past the plan's videos per job; 402 when credits cannot pay; 503 `extraction_unavailable` without a model.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The same key and body within 24 hours answer the first response again and create nothing. */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Preferred caption language (BCP-47); default: the video's own. */
                        language?: string;
                        /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                        schema?: {
                            columns: string[];
                        } | {
                            /** @description Column names mapped to what to put in each (up to 500 characters). */
                            template: {
                                [key: string]: string;
                            };
                        };
                        /** @description A saved schema's id. */
                        schema_id?: string;
                        /** @description Default: the latest at submission. */
                        schema_version?: number;
                        /** @description YouTube URLs (watch?v=, youtu.be/, shorts/, embed/, live/, m., music.) or 11-character video ids. */
                        videos: string[];
                    };
                };
            };
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Submit a job */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts: {
                                done: number;
                                failed: number;
                                processing: number;
                                queued: number;
                            };
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
                    };
                };
            };
        };
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
         * @description While running: counts, `results: null`. The first read after the job settles carries the rows and deletes them from storage; later reads have `rows: null`.
         */
        get: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Read a job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts: {
                                done: number;
                                failed: number;
                                processing: number;
                                queued: number;
                            };
                            job_id: string;
                            results: null;
                            /** @enum {string} */
                            status: "processing";
                            videos: number;
                        } | {
                            counts: {
                                done: number;
                                failed: number;
                                processing: number;
                                queued: number;
                            };
                            credits_charged: number;
                            job_id: string;
                            results: ({
                                /** @description The rows, in the one read that hands them over; null in every other read. */
                                rows: {
                                    results: {
                                        [key: string]: string | number | boolean | null;
                                    }[];
                                } | null;
                                /** @enum {string} */
                                status: "done";
                                usage: {
                                    chunk_count: number;
                                    credits_charged: number;
                                    duration_seconds: number;
                                    row_count: number;
                                };
                                video_id: string;
                            } | {
                                /** @enum {number} */
                                credits_charged: 0;
                                error: {
                                    code: string;
                                    message: string;
                                    retryable: boolean;
                                };
                                rows: null;
                                /** @enum {string} */
                                status: "failed";
                                video_id: string;
                            })[];
                            status: "done" | "failed" | "partial";
                            videos: number;
                        };
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description List API keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /**
                                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                                 * @example 2026-11-22 15:04:05
                                 */
                                created_at: string;
                                environment: "live" | "test";
                                id: string;
                                label: string;
                                last_used_at: string | null;
                                /** @example vr_live_****a1b2 */
                                masked_key: string;
                                revoked_at: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key
         * @description The full key is in this response only; store it now. 403 `plan_limit` past the plan's allowance.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        environment?: "live" | "test";
                        label?: string;
                        /** @description For you; never shown in lists. */
                        note?: string;
                    };
                };
            };
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Create an API key */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            key: string;
                            label: string;
                        };
                    };
                };
            };
        };
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
        delete: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description No body. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description List saved schemas */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                                /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                                schema: {
                                    columns: string[];
                                } | {
                                    /** @description Column names mapped to what to put in each (up to 500 characters). */
                                    template: {
                                        [key: string]: string;
                                    };
                                };
                                /** @description The latest version. */
                                version: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Save a schema
         * @description Publishes version 1. 409 `schema_name_taken` if the name is in use in the workspace.
         */
        post: {
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
                        /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                        schema: {
                            columns: string[];
                        } | {
                            /** @description Column names mapped to what to put in each (up to 500 characters). */
                            template: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Save a schema */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            version: number;
                        };
                    };
                };
            };
        };
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
        get: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Read a saved schema */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                            /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                            schema: {
                                columns: string[];
                            } | {
                                /** @description Column names mapped to what to put in each (up to 500 characters). */
                                template: {
                                    [key: string]: string;
                                };
                            };
                            version: number;
                            /** @description Every version, oldest first. */
                            versions: {
                                /**
                                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                                 * @example 2026-11-22 15:04:05
                                 */
                                created_at: string;
                                description: string;
                                label: string;
                                /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                                schema: {
                                    columns: string[];
                                } | {
                                    /** @description Column names mapped to what to put in each (up to 500 characters). */
                                    template: {
                                        [key: string]: string;
                                    };
                                };
                                version: number;
                            }[];
                        };
                    };
                };
            };
        };
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
        post: {
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
                        /** @description Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. */
                        schema: {
                            columns: string[];
                        } | {
                            /** @description Column names mapped to what to put in each (up to 500 characters). */
                            template: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Publish a new version */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            version: number;
                        };
                    };
                };
            };
        };
        delete?: never;
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Read usage */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the hard cap
         * @description `hard_cap` caps the credits used in a cycle; submissions past it answer 402 `hard_cap_reached`.
         */
        patch: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Set the hard cap */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
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
                    };
                };
            };
        };
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
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description List webhook endpoints */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /**
                                 * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                                 * @example 2026-11-22 15:04:05
                                 */
                                created_at: string;
                                disabled: boolean;
                                events: ("job.completed" | "job.failed" | "batch.completed")[];
                                id: string;
                                url: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a webhook endpoint
         * @description The signing secret is in this response only. 403 `plan_limit` on a plan without webhooks or past its endpoint count.
         */
        post: {
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
                        /** @description An https:// URL. */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Create a webhook endpoint */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            secret: string;
                            url: string;
                        };
                    };
                };
            };
        };
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
        delete: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description No body. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        /** Pause or re-enable a webhook endpoint */
        patch: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Pause or re-enable a webhook endpoint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description UTC, `YYYY-MM-DD HH:MM:SS`.
                             * @example 2026-11-22 15:04:05
                             */
                            created_at: string;
                            disabled: boolean;
                            events: ("job.completed" | "job.failed" | "batch.completed")[];
                            id: string;
                            url: string;
                        };
                    };
                };
            };
        };
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
        get: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description List delivery attempts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
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
                                event_type: "job.completed" | "job.failed" | "batch.completed";
                                /** @description This attempt's id. */
                                id: string;
                                /** @description The receiver's answer, if any. */
                                status_code: number | null;
                            }[];
                            pagination: {
                                has_more: boolean;
                                limit: number;
                                offset: number;
                                total: number;
                            };
                        };
                    };
                };
            };
        };
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
        post: {
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
                /** @description The one shape of every error answer. */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description The one shape of every error answer. */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @description Stable; branch on this. */
                                code: "invalid_request" | "unauthorized" | "insufficient_credits" | "hard_cap_reached" | "plan_limit" | "job_not_found" | "schema_not_found" | "schema_version_not_found" | "webhook_not_found" | "key_not_found" | "delivery_not_found" | "not_found" | "method_not_allowed" | "schema_name_taken" | "idempotency_conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "extraction_unavailable" | "unavailable";
                                /** @description For people; may change. */
                                message: string;
                                /** @description The input field to blame, when there is one. */
                                param?: string;
                                request_id: string;
                            };
                        };
                    };
                };
                /** @description Send an event again */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            delivery_id: string;
                            event_id: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
