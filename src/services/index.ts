// The services, built once over one store and one plan table.
import type { PlanTable } from "../plans.js";
import type { Store } from "../store/database.js";
import { ApiKeyService } from "./api-keys.js";
import { Authenticator } from "./authentication.js";
import { RateLimiter } from "./rate-limiter.js";
import { SchemaService } from "./schemas.js";
import { UsageService } from "./usage.js";
import { WorkspaceService } from "./workspaces.js";

export interface Services {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly workspaces: WorkspaceService;
  readonly apiKeys: ApiKeyService;
  readonly schemas: SchemaService;
  readonly usage: UsageService;
}

export function createServices(store: Store, plans: PlanTable): Services {
  const workspaces = new WorkspaceService(store, plans);
  return {
    authenticator: new Authenticator(store, plans),
    rateLimiter: new RateLimiter(store),
    workspaces,
    apiKeys: new ApiKeyService(store),
    schemas: new SchemaService(store),
    usage: new UsageService(store, workspaces),
  };
}
