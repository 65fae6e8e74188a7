import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createTask, grant, json, maxUser, signUp } from "../helpers";
import { forgedKey } from "../support/forged";
import { seedKey } from "../support/seed";
import { objectOf, openStream } from "./stream-support";

/** The live stream (src/object/stream.ts, src/http/v1/stream.ts): docs/events.md "The stream". */

describe("opening the stream", () => {
  it("refuses a missing or forged credential (401) and an account without Max (403), with no socket", async () => {
    for (const token of [undefined, forgedKey()]) {
      const { res } = await openStream({ token });
      expect(res.status).toBe(401);
      expect(res.webSocket).toBeNull();
      expect((await json(res)).code).toBe("unauthorized");
    }
    const free = await signUp("free");
    const { key } = await seedKey(free.accountId);
    const refused = await openStream({ token: key });
    expect(refused.res.status).toBe(403);
    expect((await json(refused.res)).code).toBe("max_required");
  });

  it("accepts a key by header or subprotocol and a page session at /account/stream, selecting todo.v1", async () => {
    const user = await maxUser("open");
    for (const opened of [
      await openStream({ token: user.key }),
      await openStream({ token: user.key, asProtocol: true }),
      await openStream({ token: user.session, asProtocol: true, path: "/account/stream" }),
    ]) {
      expect(opened.res.status).toBe(101);
      expect(opened.res.headers.get("sec-websocket-protocol")).toBe("todo.v1");
      opened.ws.close(1000);
    }
  });

  it("refuses a foreign Origin (cross-site WebSocket hijacking) and a plain GET", async () => {
    const user = await maxUser("origin");
    const foreign = await openStream({
      token: user.session,
      asProtocol: true,
      path: "/account/stream",
      origin: "https://evil.example",
    });
    expect(foreign.res.status).toBe(403);
    expect((await json(foreign.res)).code).toBe("forbidden_origin");
    const plain = await call("/api/v1/stream", { token: user.key });
    expect(plain.status).toBe(400);
    const unauthorizedPlain = await call("/api/v1/stream");
    expect(unauthorizedPlain.status).toBe(401);
  });
});

describe("events on the stream", () => {
  it("sends a committed change's events as {type, data, serverTime}, and nothing for a failed write", async () => {
    const user = await maxUser("events");
    const socket = await openStream({ token: user.key });
    const failed = await call("/api/v1/tasks/0193c000-0000-7000-8000-000000000000", {
      method: "PATCH",
      token: user.key,
      body: { title: "nobody" },
    });
    expect(failed.status).toBe(404);
    const task = await createTask(user.key, { title: "Pushed" });
    const first = await socket.next();
    expect(first).toMatchObject({ type: "task.created", data: { id: task.id, title: "Pushed" } });
    expect(Date.parse(first.serverTime)).toBeGreaterThanOrEqual(Date.parse(task.updatedAt));
    await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
    expect(await socket.next()).toMatchObject({ type: "task.completed", data: { id: task.id } });
    expect(await socket.next(300)).toBeUndefined();
    socket.ws.close(1000);
  });

  it("sends nothing from a transaction rolled back after its verb ran", async () => {
    const user = await maxUser("rollback");
    const socket = await openStream({ token: user.key });
    // A write whose transaction throws after the verb raised its event: nothing may reach the socket.
    let ran: any;
    await runInDurableObject(objectOf(user.accountId), async (object, state) => {
      const instance = object as unknown as { run: (request: unknown) => Promise<unknown> };
      const storage: { transactionSync: (fn: () => unknown) => unknown } = state.storage;
      const transactionSync = storage.transactionSync.bind(storage);
      storage.transactionSync = ((fn: () => unknown) =>
        transactionSync(() => {
          ran = fn();
          throw new Error("disk full");
        })) as never;
      try {
        const result = await instance.run({
          credential: { kind: "session" },
          verb: "createTask",
          args: { input: { title: "Lost" } },
        });
        expect(result).toMatchObject({ ok: false, error: { code: "internal" } });
      } finally {
        storage.transactionSync = transactionSync;
      }
    });
    // The verb ran whole and raised its event inside the transaction that was then rolled back.
    expect(ran.events).toMatchObject([{ type: "task.created", data: { title: "Lost" } }]);
    expect(await socket.next(300)).toBeUndefined();
    const listed = await json(await call("/api/v1/tasks", { token: user.key }));
    expect(listed.data).toHaveLength(0);
    socket.ws.close(1000);
  });
});

describe("resume", () => {
  it("sends what changed since a serverTime as one sync message", async () => {
    const user = await maxUser("resume");
    const before = await createTask(user.key, { title: "Seen" });
    const since = new Date(Date.parse(before.updatedAt) + 1).toISOString();
    const missed = await createTask(user.key, { title: "Missed" });
    await call(`/api/v1/tasks/${before.id}`, { method: "DELETE", token: user.key });
    const socket = await openStream({ token: user.key, since });
    const sync = await socket.next();
    expect(sync.type).toBe("sync");
    expect(sync.data.tasks.map((t: { id: string }) => t.id)).toEqual([missed.id]);
    expect(sync.data.deleted.map((t: { id: string }) => t.id)).toEqual([before.id]);
    // The same, asked for in a first message.
    socket.ws.send(JSON.stringify({ type: "resume", since }));
    expect((await socket.next()).data.tasks).toHaveLength(1);
    socket.ws.close(1000);
  });

  it("closes with 4410 after an error message for a since older than the tombstones (410 sync_expired)", async () => {
    const user = await maxUser("expired");
    const socket = await openStream({ token: user.key, since: new Date(Date.now() - 100 * 86_400_000).toISOString() });
    expect(await socket.next()).toMatchObject({ type: "error", data: { code: "sync_expired" } });
    expect((await socket.closed).code).toBe(4410);
  });
});

describe("closing", () => {
  it("closes a revoked key's sockets with 4401, and keeps the others", async () => {
    const user = await maxUser("revoke");
    const other = await seedKey(user.accountId, "other");
    const revoked = await openStream({ token: user.key });
    const kept = await openStream({ token: other.key });
    expect((await call(`/account/api-keys/${user.keyId}`, { method: "DELETE", token: user.session })).status).toBe(204);
    expect((await revoked.closed).code).toBe(4401);
    await createTask(other.key, { title: "Still here" });
    expect((await kept.next()).type).toBe("task.created");
    kept.ws.close(1000);
  });

  it("closes every socket with 4403 when Max lapses", async () => {
    const user = await maxUser("lapse");
    const socket = await openStream({ token: user.session, asProtocol: true, path: "/account/stream" });
    expect((await grant(user.email, "free")).status).toBe(200);
    expect((await socket.closed).code).toBe(4403);
  });

  it("holds 20 sockets per account: the 21st closes the oldest with 4409", async () => {
    const user = await maxUser("limit");
    const sockets = [];
    for (let i = 0; i < 21; i++) sockets.push(await openStream({ token: user.key }));
    expect((await sockets[0]!.closed).code).toBe(4409);
    const open = await runInDurableObject(objectOf(user.accountId), (_, state) => state.getWebSockets().length);
    expect(open).toBe(20);
    for (const s of sockets.slice(1)) s.ws.close(1000);
  });
});

describe("heartbeat", () => {
  it('answers "ping" with "pong" by the auto-response, without waking the object', async () => {
    const user = await maxUser("ping");
    const socket = await openStream({ token: user.key });
    socket.ws.send("ping");
    expect(await socket.next()).toBe("pong");
    const stamped = await runInDurableObject(objectOf(user.accountId), (_, state) =>
      state.getWebSockets().map((ws) => state.getWebSocketAutoResponseTimestamp(ws)),
    );
    expect(stamped).toHaveLength(1);
    expect(stamped[0]).toBeInstanceOf(Date);
    socket.ws.close(1000);
  });
});
