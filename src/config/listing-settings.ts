// How a process shares its listing runs (`GET /v1/videos`) between workspaces: how many run at once and
// how many of one workspace's may wait for a slot (docs/running-on-postgres-and-many-machines.md, "Fair share").
import { integerSetting } from "./setting-values.js";

export interface ListingSettings {
  /** VIDROWS_LISTING_SLOTS: listings one process runs at once (4). */
  readonly slots: number;
  /** VIDROWS_LISTING_QUEUE: listings of one workspace that may wait for a slot in one process (8); past it, 429. */
  readonly queuePerWorkspace: number;
}

export const defaultListingSettings: ListingSettings = Object.freeze({ slots: 4, queuePerWorkspace: 8 });

export function listingSettings(env: NodeJS.ProcessEnv): ListingSettings {
  return Object.freeze({
    slots: integerSetting(env, "VIDROWS_LISTING_SLOTS", defaultListingSettings.slots, 1, 256),
    queuePerWorkspace: integerSetting(
      env,
      "VIDROWS_LISTING_QUEUE",
      defaultListingSettings.queuePerWorkspace,
      0,
      10_000,
    ),
  });
}
