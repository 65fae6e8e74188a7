import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { feed, tasks } from "./schema";
import type { AccountContext, AccountDb } from "./context";
import { randomBase62 } from "../domain/crypto";
import { toTask } from "./tasks/row";
import type { Task } from "../domain/tasks/schemas";

/**
 * The account's private calendar feed, `/feeds/<token>.ics`. The token is the account's id (32 hex
 * digits, so the Worker knows which object to ask without a lookup) and 32 random base62 characters
 * (190 bits); the object keeps only its SHA-256, so a rotated or disabled token is refused (404) on
 * its very next request. Max is judged by the object at every read (403 when lapsed).
 */

const ACCOUNT_HEX = 32;
const RANDOM = 32;
const TOKEN = new RegExp(`^[0-9a-f]{${ACCOUNT_HEX}}[0-9A-Za-z]{${RANDOM}}$`);

/** A new token for the account: made by the Worker, which hashes it (WebCrypto) before the object stores it. */
export const newFeedToken = (accountId: string) => accountId.replaceAll("-", "") + randomBase62(RANDOM);

/** The account a well-formed token names (as a UUID), or undefined. */
export function accountOfFeedToken(token: string): string | undefined {
  if (!TOKEN.test(token)) return undefined;
  const hex = token.slice(0, ACCOUNT_HEX);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

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
