import * as feeds from "../feeds";
import { none, verb } from "./verb";

/** The account page: a new feed token's SHA-256 (the Worker made and hashed it) replaces the old one. No Max needed. */
export const rotateFeed = verb({ writes: true, needsMax: false, run: feeds.rotateFeed, events: none });
