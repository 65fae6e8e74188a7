import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exports } from "cloudflare:workers";
import { call, json, maxUser } from "../helpers";
import { createWebhook, receiver, runAlarm, verified } from "./support";

/**
 * A route whose body is declared `required: false` (issue 35, item 17): `curl -X POST …` (no body, no
 * type) and an empty body with a type work like `{}`. Routes that need a body still refuse an empty one.
 */
const BASE = "http://example.com";

/** The three ways to say nothing, sent as they are (the test helper would add a JSON type). */
const EMPTY: [label: string, init: RequestInit][] = [
  ["no body and no content type", {}],
  ["an empty body with a JSON content type", { body: "", headers: { "content-type": "application/json" } }],
  ["an empty body with content-length 0 and no type", { body: new Uint8Array(0), headers: { "content-length": "0" } }],
  [
    "an empty stream with a JSON content type",
    { body: emptyStream(), headers: { "content-type": "application/json" } },
  ],
];

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

function send(path: string, token: string, method: string, [, init]: [string, RequestInit]) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  // A stream is single-use: each call gets a fresh one.
  const body = init.body instanceof ReadableStream ? emptyStream() : init.body;
  return exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body, duplex: "half" } as RequestInit));
}

describe("an optional body", () => {
  // The queued test events go to a stand-in receiver, not to the network.
  let received: ReturnType<typeof receiver>["received"] = [];
  let restore = () => {};
  beforeEach(() => {
    ({ received, restore } = receiver());
  });
  afterEach(() => restore());

  it.each(EMPTY)("POST /api/v1/webhooks/{id}/test with %s is queued", async (...row) => {
    const user = await maxUser("test-empty");
    const hook = await createWebhook(user.key);
    const res = await send(`/api/v1/webhooks/${hook.id}/test`, user.key, "POST", row);
    expect(res.status).toBe(202);
    const { eventId } = await json(res);
    await runAlarm(user.accountId);
    expect(received.map((request) => verified(hook.secret, request).type)).toEqual(["webhook.test"]);
    expect(received[0]!.headers["webhook-id"]).toBe(eventId);
  });

  it.each(EMPTY)("POST /account/feed with %s makes a feed", async (...row) => {
    const user = await maxUser("feed-empty");
    const res = await send("/account/feed", user.session, "POST", row);
    expect(res.status).toBe(201);
    expect((await json(res)).url).toMatch(/\/feeds\/.+\.ics$/);
  });

  it("still takes `{}`, and still refuses anything else in it, or a body that is not JSON", async () => {
    const user = await maxUser("test-braces");
    const hook = await createWebhook(user.key);
    const path = `/api/v1/webhooks/${hook.id}/test`;
    expect((await call(path, { method: "POST", token: user.key, body: {} })).status).toBe(202);
    await runAlarm(user.accountId);
    expect(received).toHaveLength(1);
    expect((await call("/account/feed", { token: user.session, body: {} })).status).toBe(201);
    const extra = await call(path, { method: "POST", token: user.key, body: { x: 1 } });
    expect([extra.status, (await json(extra)).code]).toEqual([400, "validation_failed"]);
    const text = await call(path, {
      method: "POST",
      token: user.key,
      body: "hello",
      headers: { "content-type": "text/plain" },
    });
    expect([text.status, (await json(text)).code]).toEqual([400, "validation_failed"]);
    const untyped = await send(path, user.key, "POST", ["bytes without a type", { body: "{}" }]);
    expect(untyped.status).toBe(400);
    const broken = await call("/account/feed", { token: user.session, body: "{" });
    expect([broken.status, (await json(broken)).code]).toEqual([400, "validation_failed"]);
  });

  it("keeps 401 first: no credentials, no queued event", async () => {
    const res = await exports.default.fetch(new Request(`${BASE}/api/v1/webhooks/x/test`, { method: "POST" }));
    expect(res.status).toBe(401);
    expect((await exports.default.fetch(new Request(`${BASE}/account/feed`, { method: "POST" }))).status).toBe(401);
  });
});

describe("a required body", () => {
  const SIBLINGS: [door: string, method: string, path: (hookId: string) => string][] = [
    ["REST", "POST", () => "/api/v1/webhooks"],
    ["REST", "PATCH", (id) => `/api/v1/webhooks/${id}`],
    ["page", "POST", () => "/account/api-keys"],
    ["page", "PATCH", (id) => `/account/webhooks/${id}`],
  ];

  it.each(SIBLINGS)("%s %s is still refused without one", async (door, method, path) => {
    const user = await maxUser("needs-body");
    const hook = await createWebhook(user.key);
    const token = door === "REST" ? user.key : user.session;
    for (const row of EMPTY) {
      const res = await send(path(hook.id), token, method, row);
      expect([row[0], res.status, (await json(res)).code]).toEqual([row[0], 400, "validation_failed"]);
    }
  });
});
