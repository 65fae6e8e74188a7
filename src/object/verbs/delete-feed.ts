import * as feeds from "../feeds";
import { none, verb } from "./verb";

/** The account page: the feed off (its address answers 404). No Max needed. */
export const deleteFeed = verb({ writes: true, needsMax: false, run: feeds.deleteFeed, events: none });
