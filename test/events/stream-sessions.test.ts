import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callWith, uniqueIp } from "../hardening/support";
import { call, createTask, json, maxUser } from "../helpers";
import { signUpWithMail } from "../support/mailbox";
import { SEED_PASSWORD, seedKey, seedMax } from "../support/seed";
import { type Opened, openStream } from "./stream-support";

/**
 * A session's sockets on the live stream close (4401) the moment the session ends, whichever way it ends
 * (src/control/accounts/sessions.ts `closeSessionSockets`, src/object/stream.ts): docs/events.md "The stream".
 * Each test holds a key's socket beside the sessions' ones, which no session's end may close.
 */

const logIn = async (email: string, password = SEED_PASSWORD): Promise<string> => {
  const res = await callWith({}, "/auth/login", { body: { email, password }, ip: uniqueIp() });
  expect(res.status).toBe(200);
  return (await json(res)).token;
};

const openSession = (token: string) => openStream({ token, asProtocol: true, path: "/account/stream" });

/** The code a socket closed with, or "open" if it has not closed within `ms`. */
const closedWith = (socket: Opened, ms = 1000) =>
  Promise.race([
    socket.closed.then((c) => c.code),
    new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms)),
  ]);

/** Every socket in `open` still hears the account's next change; each is then closed by the test. */
async function stillHear(key: string, open: Opened[]) {
  const task = await createTask(key, { title: "After the session ended" });
  for (const socket of open) {
    expect(await socket.next()).toMatchObject({ type: "task.created", data: { id: task.id } });
    socket.ws.close(1000);
  }
}

/** An account with Max, a key, two sessions (A signed up, B signed in) and a socket of each, A's twice (two tabs). */
async function twoSessions(label: string) {
  const user = await maxUser(label);
  const b = await logIn(user.email);
  const sockets = {
    a: [await openSession(user.session), await openSession(user.session)],
    b: await openSession(b),
    key: await openStream({ token: user.key }),
  };
  for (const s of [...sockets.a, sockets.b, sockets.key]) expect(s.res.status).toBe(101);
  return { user, b, sockets };
}

describe("a session's end closes its sockets on the stream", () => {
  it("sign-out (POST /auth/logout) closes that session's sockets with 4401, and only those", async () => {
    const { user, sockets } = await twoSessions("logout");
    expect((await call("/auth/logout", { method: "POST", token: user.session })).status).toBe(204);
    for (const s of sockets.a) expect(await closedWith(s)).toBe(4401);
    expect((await sockets.a[0]!.closed).reason).toBe("The session ended (signed out).");
    await stillHear(user.key, [sockets.b, sockets.key]);
  });

  it("ending one listed session (DELETE /account/sessions/{id}) closes that session's sockets", async () => {
    const { user, b, sockets } = await twoSessions("end-one");
    const listed = (await json(await call("/account/sessions", { token: b }))).data as {
      id: string;
      current: boolean;
    }[];
    const a = listed.find((s) => !s.current)!;
    expect((await call(`/account/sessions/${a.id}`, { method: "DELETE", token: b })).status).toBe(204);
    for (const s of sockets.a) expect(await closedWith(s)).toBe(4401);
    await stillHear(user.key, [sockets.b, sockets.key]);
  });

  it("sign out everywhere (DELETE /account/sessions) closes every session's sockets, not the key's", async () => {
    const { user, b, sockets } = await twoSessions("everywhere");
    expect((await call("/account/sessions", { method: "DELETE", token: b })).status).toBe(204);
    for (const s of [...sockets.a, sockets.b]) expect(await closedWith(s)).toBe(4401);
    await stillHear(user.key, [sockets.key]);
  });

  it("a password change closes every other session's sockets; its own and the key's stay", async () => {
    const { user, b, sockets } = await twoSessions("password");
    const changed = await call("/account/password", {
      token: b,
      body: { currentPassword: user.password, newPassword: "a brand new password" },
    });
    expect(changed.status).toBe(204);
    for (const s of sockets.a) expect(await closedWith(s)).toBe(4401);
    await stillHear(user.key, [sockets.b, sockets.key]);
  });

  it("a password reset closes every session's sockets, not the key's", async () => {
    const { box, email, session, accountId } = await signUpWithMail();
    await seedMax(email);
    const { key } = await seedKey(accountId);
    const sessions = [await openSession(session), await openSession(await logIn(email))];
    const keySocket = await openStream({ token: key });
    await callWith(box.env, "/auth/password-reset", { body: { email }, ip: uniqueIp() });
    const token = box.tokenFor(email, "/reset");
    const confirmed = await callWith(box.env, "/auth/password-reset/confirm", {
      body: { token, newPassword: "a brand new password" },
      ip: uniqueIp(),
    });
    expect(confirmed.status).toBe(204);
    for (const s of sessions) expect(await closedWith(s)).toBe(4401);
    await stillHear(key, [keySocket]);
  });

  it("sign-out stands when the account's object cannot be told (the socket then stays open, logged)", async () => {
    const { user, sockets } = await twoSessions("unreachable");
    const unreachable = new Proxy(env.ACCOUNTS, {
      get: (target, prop) =>
        prop === "get"
          ? () => ({ change: () => Promise.reject(new Error("object unreachable")) })
          : Reflect.get(target, prop, target).bind(target),
    });
    const out = await callWith({ ACCOUNTS: unreachable }, "/auth/logout", { method: "POST", token: user.session });
    expect(out.status).toBe(204);
    expect((await call("/account/sessions", { token: user.session })).status).toBe(401);
    expect(await closedWith(sockets.a[0]!, 300)).toBe("open");
    await stillHear(user.key, [...sockets.a, sockets.b, sockets.key]);
  });

  it("erasure (DELETE /account) closes every socket of the account, the key's too, with 4401", async () => {
    const { user, sockets } = await twoSessions("erase");
    const erased = await call("/account", { method: "DELETE", token: user.session, body: { password: user.password } });
    expect(erased.status).toBe(204);
    for (const s of [...sockets.a, sockets.b, sockets.key]) expect(await closedWith(s)).toBe(4401);
  });
});

describe("a session's days run out while its socket is open", () => {
  it("closes the socket with 4401 at the first change after its expiry, and no key's", async () => {
    const user = await maxUser("expiring");
    const now = Date.now();
    // Used a moment ago (no touch that would start its days again), and over in 1.5 s.
    await env.DB.prepare("UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE account_id = ?")
      .bind(new Date(now + 1500).toISOString(), new Date(now).toISOString(), user.accountId)
      .run();
    const session = await openSession(user.session);
    const key = await openStream({ token: user.key });
    expect([session.res.status, key.res.status]).toEqual([101, 101]);
    const before = await createTask(user.key, { title: "Before the end" });
    expect(await session.next()).toMatchObject({ type: "task.created", data: { id: before.id } });
    expect(await key.next()).toMatchObject({ type: "task.created", data: { id: before.id } });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await stillHear(user.key, [key]);
    expect(await closedWith(session)).toBe(4401);
    expect((await session.closed).reason).toBe("The session has expired: sign in again.");
  });
});
