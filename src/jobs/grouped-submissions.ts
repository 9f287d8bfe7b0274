// PostgreSQL: the submissions of one workspace that arrive together, written by one statement and one commit.
import type { Caller } from "../access/authentication.js";
import { isCycleDue, renewCycleIfDue } from "../credits/cycles.js";
import { newId } from "../domain/ids.js";
import type { StoredTranscribeMode } from "../domain/transcribe-mode.js";
import type { Store } from "../store/database.js";
import type { JobCreated } from "./job-schemas.js";
import { createdBody, type IdempotencyRecord, type JobWriter, type NewJob } from "./job-writer.js";
import { submitTogether, type TakenPlaces } from "./submission-statements.js";
import { sealedReferences } from "./transaction-job-writer.js";

/** A submission ready to be written: its job, its data key and its videos' ids and sealed URLs. */
export interface ReadySubmission {
  readonly jobId: string;
  readonly schemaLabel: string;
  /** The schema as JSON text. */
  readonly schemaDefinition: string;
  readonly language: string | null;
  readonly transcribe: StoredTranscribeMode | null;
  readonly reuseTranscripts: number | null;
  readonly videoCount: number;
  readonly dataKey: Buffer;
  /** JSON arrays, one element per video in the job's order (the admission row's). */
  readonly platformVideoIds: string;
  readonly submittedUrls: string;
  /** When it arrived, Unix ms: the job's `created_at`. */
  readonly createdAt: number;
}

/** Submissions waiting for the statement before theirs to come back, and the promise of their own. */
interface Group {
  readonly submissions: ReadySubmission[];
  readonly written: Promise<TakenPlaces | undefined>;
  send(): void;
}

/** Submissions one statement writes at most; past it they wait for the next. */
const groupSize = 64;

/**
 * Every submission of a workspace takes its row lock for its queue places, so on PostgreSQL they take
 * turns, each holding the lock through its commit (a WAL flush): one workspace's submissions could
 * not go faster than one commit each. Here the first is written at once; those that arrive while it
 * is on its way wait for it and are then written together, by one statement (`submitTogether`) and one
 * commit, as SQLite's grouped commits do (store/grouped-writes.ts). Each is answered once that commit
 * is done, so an accepted job is as durable as before. They succeed or are refused together: what the
 * statement checks (a balance above 0, usage under the hard cap) is the workspace's, not the job's.
 */
export class GroupedSubmissions {
  /** Per workspace: whether a statement is on its way, and the groups waiting behind it. */
  private readonly workspaces = new Map<string, { sending: boolean; waiting: Group[] }>();

  constructor(private readonly store: Store) {}

  /**
   * Writes the submission, with whichever of its workspace's arrive meanwhile; answers the
   * workspace's dates (see `TakenPlaces`), or undefined when it may not spend and nothing was written.
   */
  submit(workspaceId: string, submission: ReadySubmission): Promise<TakenPlaces | undefined> {
    let workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      workspace = { sending: false, waiting: [] };
      this.workspaces.set(workspaceId, workspace);
    }
    let group = workspace.waiting.at(-1);
    if (!group || group.submissions.length >= groupSize) {
      group = this.group(workspaceId);
      workspace.waiting.push(group);
    }
    group.submissions.push(submission);
    if (!workspace.sending) this.sendNext(workspaceId);
    return group.written;
  }

  private group(workspaceId: string): Group {
    const submissions: ReadySubmission[] = [];
    let send = () => {};
    const written = new Promise<TakenPlaces | undefined>((resolve, reject) => {
      send = () => this.write(workspaceId, submissions).then(resolve, reject);
    });
    return { submissions, written, send };
  }

  /** Sends the workspace's first waiting group, and the next when it is back, until none waits. */
  private sendNext(workspaceId: string): void {
    const workspace = this.workspaces.get(workspaceId);
    const group = workspace?.waiting.shift();
    if (!workspace || !group) {
      this.workspaces.delete(workspaceId);
      return;
    }
    workspace.sending = true;
    group.send();
    const next = () => {
      workspace.sending = false;
      this.sendNext(workspaceId);
    };
    group.written.then(next, next);
  }

  private write(workspaceId: string, submissions: ReadySubmission[]): Promise<TakenPlaces | undefined> {
    const videos = submissions.reduce((sum, s) => sum + s.videoCount, 0);
    return submitTogether(this.store.db).first(this.store.db, {
      workspaceId,
      videos,
      jobs: submissions.length,
      jobIds: submissions.map((s) => s.jobId),
      schemaLabels: submissions.map((s) => s.schemaLabel),
      schemaDefinitions: submissions.map((s) => s.schemaDefinition),
      languages: submissions.map((s) => s.language),
      transcribeModes: submissions.map((s) => s.transcribe),
      reuseChoices: submissions.map((s) => s.reuseTranscripts),
      videoCounts: submissions.map((s) => s.videoCount),
      dataKeys: submissions.map((s) => s.dataKey),
      platformVideoIds: submissions.map((s) => s.platformVideoIds),
      submittedUrls: submissions.map((s) => s.submittedUrls),
      createdAts: submissions.map((s) => s.createdAt),
    });
  }
}

/**
 * PostgreSQL's writer: a submission without an Idempotency-Key goes with its workspace's others in one
 * statement (GroupedSubmissions). One with a key, whose record must be written or found taken in the
 * same transaction, goes through `inTransaction`; so does one the grouped statement refused for
 * credits, and the transaction says why with its 402, or renews a due cycle and accepts.
 */
export class GroupedJobWriter implements JobWriter {
  private readonly groups: GroupedSubmissions;

  constructor(
    private readonly store: Store,
    private readonly inTransaction: JobWriter,
  ) {
    this.groups = new GroupedSubmissions(store);
  }

  async write(caller: Caller, job: NewJob, idempotency: IdempotencyRecord | undefined): Promise<JobCreated> {
    // A job taking uploads binds them in its transaction (job-uploads.ts), which the grouped statement has not.
    if (!idempotency && job.uploads.length === 0) {
      const body = await this.writeGrouped(caller, job);
      if (body) return body;
    }
    return this.inTransaction.write(caller, job, idempotency);
  }

  /**
   * The job written with the others of its workspace that arrive together; undefined when the
   * workspace may not spend as its row stands, having written nothing. A new cycle due is started
   * after it, as a read of usage would start it: the job was accepted on the old cycle's figures, and
   * a renewal only raises the balance and clears the usage.
   */
  private async writeGrouped(caller: Caller, job: NewJob): Promise<JobCreated | undefined> {
    const now = Date.now();
    const jobId = newId("job", now);
    const taken = await this.groups.submit(caller.workspaceId, {
      jobId,
      schemaLabel: job.label,
      schemaDefinition: JSON.stringify(job.definition),
      language: job.language,
      transcribe: job.transcribe,
      reuseTranscripts: job.reuseTranscripts,
      videoCount: job.platformIds.length,
      ...sealedReferences(job.references),
      platformVideoIds: JSON.stringify(job.platformIds),
      createdAt: now,
    });
    if (!taken) return undefined;
    if (isCycleDue(taken, now)) {
      await this.store.db
        .transaction()
        .execute((trx) => renewCycleIfDue(trx, caller.workspaceId, caller.plan, now));
    }
    return createdBody(jobId, job, now);
  }
}
