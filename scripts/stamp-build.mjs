// The last step of `npm run build`: records that the checkout's build is up to date (see build-if-stale.mjs).
import { stampBuild } from "./build-if-stale.mjs";

stampBuild(process.cwd());
