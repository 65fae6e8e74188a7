import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountObject, changeAccount } from "../../src/control/account-client";
import { API_KEY_PREFIX } from "../../src/control/api-keys/format";
import { runVerb } from "../../src/control/caller";
import { accountHex } from "../../src/domain/account-hex";
import { base62Fixed, crc32, randomBase62, sha256Hex } from "../../src/domain/crypto";
import { RATE_POLICIES } from "../../src/transport/rate-limit";
import { call, json, maxUser } from "../helpers";
import { probedAccounts, probedD1 } from "../support/d1-probes";
import {
  forgedDirectoryKey,
  forgedFeedToken,
  forgedKey,
  forgedNamedKey,
  forgedUnsignedFeedToken,
} from "../support/forged";
import { rateWindow } from "../support/rate-window";
import { callWith, limited, uniqueIp } from "./support";

/**
 * Issue 35 item 1: a made-up credential must never create an account object. Keys and feed tokens carry a
 * MAC (src/domain/credential-mac.ts), so a forged one in today's format is refused with no I/O at all; one
 * in an older format costs at most its directory read in D1 and never reaches an object it does not own.
 * Object files are counted as Miniflare lists them (listDurableObjectIds reads its storage directory).
 */

const objectFiles = async () => new Set((await listDurableObjectIds(env.ACCOUNTS)).map(String));

/** Sends each path through the real Worker with probed D1 and ACCOUNTS: statuses, D1 round trips, object calls. */
async function probeAll(requests: { path: string; token?: string }[]) {
  const d1 = probedD1(env.DB);
  const accounts = probedAccounts(env.ACCOUNTS);
  const statuses = new Set<number>();
  const d1PerRequest: number[] = [];
  for (const { path, token } of requests) {
    const before = d1.counter.trips;
    const res = await callWith({ DB: d1.db, ACCOUNTS: accounts.namespace }, path, { token, ip: uniqueIp() });
    await res.body?.cancel();
    statuses.add(res.status);
    d1PerRequest.push(d1.counter.trips - before);
  }
  return { statuses: [...statuses], d1PerRequest, objectCalls: accounts.calls };
}

const times = <T>(n: number, make: () => T) => Array.from({ length: n }, make);

describe("forged credentials (issue 35 item 1)", () => {
  it("100 forged keys and 100 forged feed tokens in today's format: 0 object files, 0 object calls, 0 D1 queries", async () => {
    const before = await objectFiles();
    const keys = await probeAll(times(100, () => ({ path: "/api/v1/tasks", token: forgedKey() })));
    const feeds = await probeAll(times(100, () => ({ path: `/feeds/${forgedFeedToken()}.ics` })));
    expect([keys.statuses, keys.objectCalls, Math.max(...keys.d1PerRequest)]).toEqual([[401], [], 0]);
    expect([feeds.statuses, feeds.objectCalls, Math.max(...feeds.d1PerRequest)]).toEqual([[404], [], 0]);
    const after = await objectFiles();
    expect([...after].filter((id) => !before.has(id))).toEqual([]);
  });

  it("forgeries in the older formats: at most the directory read, 0 object calls, 0 object files", async () => {
    const before = await objectFiles();
    const named = await probeAll(times(100, () => ({ path: "/api/v1/tasks", token: forgedNamedKey() })));
    const directory = await probeAll(times(100, () => ({ path: "/api/v1/tasks", token: forgedDirectoryKey() })));
    const feeds = await probeAll(times(100, () => ({ path: `/feeds/${forgedUnsignedFeedToken()}.ics` })));
    for (const [outcome, status] of [
      [named, 401],
      [directory, 401],
      [feeds, 404],
    ] as const) {
      expect([outcome.statuses, outcome.objectCalls, Math.max(...outcome.d1PerRequest)]).toEqual([[status], [], 1]);
    }
    expect([...(await objectFiles())].filter((id) => !before.has(id))).toEqual([]);
  });

  it("a forged key for a real account's id is refused before its object too", async () => {
    const user = await maxUser("forged-real");
    const { objectCalls, statuses } = await probeAll([
      { path: "/api/v1/tasks", token: forgedKey(user.accountId) },
      { path: "/api/v1/tasks", token: forgedNamedKey(user.accountId) },
      { path: `/feeds/${forgedFeedToken(user.accountId)}.ics` },
    ]);
    expect([statuses.sort(), objectCalls]).toEqual([[401, 404], []]);
  });

  it("an object reached for an account it does not know persists nothing", async () => {
    const nobody = crypto.randomUUID();
    const result = await accountObject(env, nobody).run({
      credential: { kind: "session" },
      verb: "listTasks",
      args: {},
    } as never);
    expect(result).toMatchObject({ ok: false, accountMissing: true });
    expect(await accountObject(env, nobody).feed("0".repeat(64))).toMatchObject({ ok: false });
    expect(await accountObject(env, nobody).usage()).toMatchObject({ ok: false, accountMissing: true });
    expect(await accountObject(env, nobody).change({ kind: "timeZone", timeZone: "UTC" })).toMatchObject({
      accountMissing: true,
    });
    // Local workerd opens a database file for every object it starts (one empty 4 KiB page, as for an object
    // that was only pinged); before issue 35 each such object ran every migration: 46 schema objects, 180 KiB.
    const pinged = accountObject(env, crypto.randomUUID());
    await pinged.ping();
    const storedIn = (stub: ReturnType<typeof accountObject>) =>
      runInDurableObject(stub, (_instance, state) => ({
        size: state.storage.sql.databaseSize,
        schema: state.storage.sql.exec("SELECT name FROM sqlite_master").toArray(),
      }));
    const empty = await storedIn(pinged);
    expect(empty.schema).toEqual([]);
    expect(await storedIn(accountObject(env, nobody))).toEqual(empty);
  });
});

/** A key as an older release made it, stored as that release stored it: D1's row and the object's. */
async function olderKey(accountId: string, format: "named" | "directory") {
  const body = API_KEY_PREFIX + (format === "named" ? accountHex(accountId) : "") + randomBase62(32);
  const key = body + base62Fixed(crc32(body), 6);
  const keyHash = await sha256Hex(key);
  const id = crypto.randomUUID();
  await changeAccount(env, accountId, { kind: "keyCreated", id, keyHash, expiresAt: null });
  await env.DB.prepare("INSERT INTO api_keys (id, account_id, name, key_hash, hint) VALUES (?, ?, 'old', ?, 'h')")
    .bind(id, accountId, keyHash)
    .run();
  return key;
}

describe("real credentials of every format still work", () => {
  it("keys: signed (no D1 query), and both older formats through the directory", async () => {
    const user = await maxUser("formats");
    const signed = await probeAll([{ path: "/api/v1/tasks", token: user.key }]);
    expect([signed.statuses, signed.d1PerRequest, signed.objectCalls]).toEqual([[200], [0], ["run"]]);
    for (const format of ["named", "directory"] as const) {
      const key = await olderKey(user.accountId, format);
      const first = await probeAll([{ path: "/api/v1/tasks", token: key }]);
      expect([first.statuses, first.d1PerRequest, first.objectCalls]).toEqual([[200], [1], ["run"]]);
      // The directory's answer is kept per isolate: the next request is one call again.
      const next = await probeAll([{ path: "/api/v1/tasks", token: key }]);
      expect([next.statuses, next.d1PerRequest]).toEqual([[200], [0]]);
    }
  });

  it("a named key is honoured only for the account its D1 row names", async () => {
    const owner = await maxUser("owner");
    const other = await maxUser("other");
    const key = await olderKey(owner.accountId, "named");
    // Same random part and a recomputed CRC, but naming another account: D1 knows no such key.
    const moved = `${API_KEY_PREFIX}${accountHex(other.accountId)}${key.slice(API_KEY_PREFIX.length + 32, -6)}`;
    const res = await call("/api/v1/tasks", { token: moved + base62Fixed(crc32(moved), 6) });
    expect(res.status).toBe(401);
  });

  it("feeds: a signed token, and an unsigned one of an account that existed before signing", async () => {
    const user = await maxUser("feed-formats");
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    expect((await call(new URL(made.url).pathname)).status).toBe(200);

    // As a release before signed tokens made it: the object holds its hash; D1 lists the account (migration 0014).
    const unsigned = forgedUnsignedFeedToken(user.accountId);
    const caller = { env, accountId: user.accountId, credential: { kind: "session" as const } };
    await runVerb(caller, "rotateFeed", { tokenHash: await sha256Hex(unsigned) });
    await env.DB.prepare("INSERT INTO unsigned_feeds (account_id) VALUES (?)").bind(user.accountId).run();
    expect((await call(`/feeds/${unsigned}.ics`)).status).toBe(200);

    // A rotation ends it, and the account leaves the list: the old URL no longer reaches the object.
    await call("/account/feed", { token: user.session, body: {} });
    const after = await probeAll([{ path: `/feeds/${unsigned}.ics` }]);
    expect([after.statuses, after.objectCalls]).toEqual([[404], []]);
  });
});

describe("the secret", () => {
  it("a key or feed signed with another secret (a rotated CREDENTIAL_SECRET) is refused before its object", async () => {
    const user = await maxUser("rotated");
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    const rotated = { CREDENTIAL_SECRET: "another-secret" };
    const accounts = probedAccounts(env.ACCOUNTS);
    const key = await callWith({ ...rotated, ACCOUNTS: accounts.namespace }, "/api/v1/tasks", { token: user.key });
    const feed = await callWith({ ...rotated, ACCOUNTS: accounts.namespace }, new URL(made.url).pathname);
    expect([key.status, feed.status, accounts.calls]).toEqual([401, 404, []]);
  });

  it("without CREDENTIAL_SECRET, signed keys and feeds are 503 (a deployment fault), never 500 or a pass", async () => {
    const user = await maxUser("no-secret");
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    const unset = { CREDENTIAL_SECRET: "" };
    const key = await callWith(unset, "/api/v1/tasks", { token: user.key });
    const feed = await callWith(unset, new URL(made.url).pathname);
    expect([key.status, (await json(key)).code, feed.status]).toEqual([503, "unavailable", 503]);
  });
});

describe("limits before the object call", () => {
  it("counts failed key attempts per IP before any object call: 401 up to the quota, then 429", async () => {
    const ip = uniqueIp();
    const accounts = probedAccounts(env.ACCOUNTS);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_POLICIES.perIp.quota + 2; i++) {
      const patch = { RATE_LIMITS: "on", ...rateWindow(), ACCOUNTS: accounts.namespace };
      const res = await callWith(patch, "/api/v1/tasks", { token: forgedKey(), ip });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual([...times(RATE_POLICIES.perIp.quota, () => 401), 429, 429]);
    expect(accounts.calls).toEqual([]);
  });

  it("limits unknown feed addresses per IP and each feed per token, at rates no calendar app's polling reaches", async () => {
    const user = await maxUser("feed-limit");
    const made = await json(await call("/account/feed", { token: user.session, body: {} }));
    const path = new URL(made.url).pathname;
    const { perFeed, perIp } = RATE_POLICIES;
    const statusesOf = async (n: number, send: () => Promise<Response>) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await send();
        statuses.push(res.status);
        await res.body?.cancel();
      }
      return statuses;
    };

    const ip = uniqueIp();
    const forged = await statusesOf(perIp.quota + 1, () => limited(`/feeds/${forgedFeedToken()}.ics`, { ip }));
    expect(forged).toEqual([...times(perIp.quota, () => 404), 429]);
    // Only failures count there: a real feed from that same address is still served.
    expect((await limited(path, { ip })).status).toBe(200);

    const polls = await statusesOf(perFeed.quota, () => limited(path, { ip: uniqueIp() }));
    expect(polls).toEqual([...times(perFeed.quota - 1, () => 200), 429]);
  });
});
