// How many PostgreSQL connections a process keeps at most: as many as it has statements in flight at once.

/** A serving process's requests in flight on the database at once (pg's default pool, as before). */
export const requestConnections = 10;

/** An administration command runs one statement at a time. */
export const administrationConnections = 2;

/**
 * The pipeline worker runs three things against the database, each one statement or transaction at a
 * time: its claims, its settlements (one batch at a time) and its lease renewals.
 */
export const pipelineConnections = 3;

/**
 * The pool size of a process: its requests when it serves; when it works, the pipeline's three, one per
 * webhook delivery in flight (each records its attempt) and one for housekeeping. Sized so, the
 * pipeline never waits for a connection behind a burst of deliveries (a worker process kept 10, which
 * 16 deliveries in flight could all hold), and a process holds no more than it can use: `pg` opens
 * connections only as they are needed, up to this.
 */
export function poolSize(role: { serve: boolean; work: boolean; deliveriesInFlight: number }): number {
  if (!role.serve && !role.work) return administrationConnections;
  const serving = role.serve ? requestConnections : 0;
  const working = role.work ? pipelineConnections + role.deliveriesInFlight + 1 : 0;
  return serving + working;
}
