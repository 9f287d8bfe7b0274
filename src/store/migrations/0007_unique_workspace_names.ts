// A workspace's name names one workspace: operators pick workspaces by name, and two alike are a trap.
import { sql, type Kysely } from "kysely";

/**
 * Databases made before this rule may hold workspaces of the same name: every one but the oldest gets
 * its id appended, `acme (ws_...)`, so that the index can be made and no workspace is lost or merged.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update workspaces set name = name || ' (' || id || ')'
    where exists (select 1 from workspaces older where older.name = workspaces.name and older.id < workspaces.id)
  `.execute(db);
  await db.schema.createIndex("workspaces_name_unique").on("workspaces").column("name").unique().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("workspaces_name_unique").execute();
}
