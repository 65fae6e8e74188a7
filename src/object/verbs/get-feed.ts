import * as feeds from "../feeds";
import { verb } from "./verb";

/**
 * The account page's calendar feed: whether it is on. Setting the feed up needs no Max; reading it does
 * (account-object.ts `feed`).
 */
export const getFeed = verb({ writes: false, needsMax: false, run: feeds.getFeed });
