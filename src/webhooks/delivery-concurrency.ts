// How many webhook deliveries a dispatcher has in flight when not told otherwise; a leaf module, so the
// composition root can size a process's database pool without loading the dispatcher.

/** Each delivery in flight records its attempt on a database connection of its own. */
export const defaultDeliveryConcurrency = 16;
