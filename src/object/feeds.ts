import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { feed, tasks } from "./schema";
import type { AccountContext, AccountDb } from "./context";
import { toTask } from "./tasks/row";
import type { Task } from "../domain/tasks/schemas";

/**
 * The account's private calendar feed, `/feeds/<token>.ics`: the token is made and judged on the Worker's side
 * (control/feed-tokens.ts); the object keeps only its SHA-256, so a rotated or disabled token is refused (404)
 * on its very next request. Max is judged by the object at every read (403 when lapsed).
 */

export interface FeedStatus {
  enabled: boolean;
  createdAt?: string;
}

export function getFeed({ db }: AccountContext): FeedStatus {
  const row = db.select({ createdAt: feed.createdAt }).from(feed).get();
  return row ? { enabled: true, createdAt: row.createdAt } : { enabled: false };
}

/** A new token's SHA-256 replaces the old one (whose URL answers 404 from now on). */
export function rotateFeed({ db }: AccountContext, { tokenHash }: { tokenHash: string }): { createdAt: string } {
  db.delete(feed).run();
  return { createdAt: db.insert(feed).values({ tokenHash }).returning().get().createdAt };
}

export function deleteFeed({ db }: AccountContext): null {
  db.delete(feed).run();
  return null;
}

/** Whether a token's SHA-256 (hex) is the account's current feed token's. */
export const isFeedToken = (db: AccountDb, tokenHash: string) =>
  db.select({ h: feed.tokenHash }).from(feed).where(eq(feed.tokenHash, tokenHash)).get() !== undefined;

/** What the feed shows: the open live tasks that have a `due`, by due date. */
export const feedTasks = (db: AccountDb): Task[] =>
  db
    .select()
    .from(tasks)
    .where(and(isNull(tasks.deletedAt), eq(tasks.completed, false), isNotNull(tasks.due)))
    .orderBy(asc(tasks.due), asc(tasks.id))
    .all()
    .map(toTask);
