// Webhooks end to end, in Node against the real Worker under `wrangler dev` (WEBHOOKS_ALLOW_LOOPBACK=on):
// a real HTTP receiver on 127.0.0.1 verifies every request with the `standardwebhooks` package. It gets
// signed task.created, task.completed and task.deleted for REST and MCP writes, a task.reminder within
// 10 s of a reminder set a few seconds ahead, and a retry after it answered 500, with the same
// webhook-id, visible in the deliveries. Also the calendar feed, parsed with ical.js, 404 once rotated.
// Run: npm run test:clients (node:test).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import ICAL from "ical.js";
import { Webhook } from "standardwebhooks";
import { accountWithKey } from "../support/accounts.mjs";
import { startWranglerDev, until } from "../support/wrangler-dev.mjs";

/** Parses a feed from stdin with Python's icalendar; prints [summary, alarm trigger] per VEVENT. */
const PYTHON_READER = `
import json, sys, icalendar
calendar = icalendar.Calendar.from_ical(sys.stdin.read())
events = [e for e in calendar.walk("VEVENT")]
print(json.dumps([[str(e.get("summary")), str(a.get("trigger").dt)] for e in events for a in e.walk("VALARM")]))
`;

let server;
let receiver;
/** What the receiver got: { path, headers, body, event (verified), answered }. */
const received = [];
/** Status to answer per path; 200 by default. A function is called with the count so far for that path. */
const answers = new Map();

function startReceiver() {
  return new Promise((resolve) => {
    const http = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const seen = received.filter((r) => r.path === req.url).length;
        const answer = answers.get(req.url);
        const status = typeof answer === "function" ? answer(seen) : (answer ?? 200);
        received.push({ path: req.url, headers: req.headers, body, answered: status });
        res.writeHead(status).end();
      });
    });
    http.listen(0, "127.0.0.1", () => resolve(http));
  });
}

const api = async (path, { key, method = "GET", body } = {}) => {
  const res = await fetch(server.base + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

async function hook(key, path, events) {
  const url = `http://127.0.0.1:${receiver.address().port}${path}`;
  const created = await api("/api/v1/webhooks", { key, method: "POST", body: { url, ...(events ? { events } : {}) } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

/** The verified events a path has received, once `count` of them arrived (waits up to 15 s). */
async function eventsAt(path, secret, count) {
  await until(() => received.filter((r) => r.path === path).length >= count, `${count} events at ${path}`, 15_000);
  return received
    .filter((r) => r.path === path)
    .map((r) => ({ ...r, event: new Webhook(secret).verify(r.body, r.headers) }));
}

async function mcp(key, name, args) {
  const res = await fetch(`${server.base}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await res.text();
  const payload = text.includes("data:")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .at(-1)
        .slice(5)
    : text;
  const { result } = JSON.parse(payload);
  assert.ok(!result.isError, JSON.stringify(result));
  return result.structuredContent;
}

before(async () => {
  receiver = await startReceiver();
  server = await startWranglerDev({ vars: { RATE_LIMITS: "off", WEBHOOKS_ALLOW_LOOPBACK: "on" } });
});

after(async () => {
  await server?.stop();
  receiver?.close();
});

describe("webhooks against wrangler dev, with a receiver on 127.0.0.1", { timeout: 120_000 }, () => {
  test("REST writes: signed task.created, task.completed and task.deleted", async () => {
    const { key } = await accountWithKey(server, { prefix: "rest" });
    const { secret } = await hook(key, "/rest");
    const { body: task } = await api("/api/v1/tasks", { key, method: "POST", body: { title: "Via REST" } });
    await api(`/api/v1/tasks/${task.id}`, { key, method: "PATCH", body: { completed: true } });
    await api(`/api/v1/tasks/${task.id}`, { key, method: "DELETE" });
    const events = await eventsAt("/rest", secret, 3);
    const byType = Object.fromEntries(events.map((r) => [r.event.type, r.event.data]));
    assert.deepEqual(Object.keys(byType).sort(), ["task.completed", "task.created", "task.deleted"]);
    assert.equal(byType["task.created"].title, "Via REST");
    assert.equal(byType["task.completed"].completed, true);
    assert.deepEqual(byType["task.deleted"], { id: task.id });
  });

  test("MCP writes: the same events", async () => {
    const { key } = await accountWithKey(server, { prefix: "mcp" });
    const { secret } = await hook(key, "/mcp");
    const { task } = await mcp(key, "create_task", { title: "Via MCP" });
    await mcp(key, "complete_task", { id: task.id });
    await mcp(key, "delete_task", { id: task.id });
    const events = await eventsAt("/mcp", secret, 3);
    assert.deepEqual(events.map((r) => r.event.type).sort(), ["task.completed", "task.created", "task.deleted"]);
    assert.ok(events.every((r) => r.event.data.id === task.id));
  });

  test("a reminder set 3 s ahead fires task.reminder within 10 s of its time, once", async (t) => {
    const { key } = await accountWithKey(server, { prefix: "remind" });
    const { secret } = await hook(key, "/remind", ["task.reminder"]);
    const reminder = new Date(Date.now() + 3000).toISOString();
    const { body: task } = await api("/api/v1/tasks", { key, method: "POST", body: { title: "Stretch", reminder } });
    const [fired] = await eventsAt("/remind", secret, 1);
    const late = Date.now() - Date.parse(reminder);
    assert.ok(late >= 0 && late < 10_000, `arrived ${late} ms after the reminder time`);
    t.diagnostic(`task.reminder arrived ${late} ms after the reminder time`);
    assert.deepEqual([fired.event.type, fired.event.data.id], ["task.reminder", task.id]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(received.filter((r) => r.path === "/remind").length, 1);
  });

  test("a 500 is retried with the same webhook-id, and both attempts show in the deliveries", async () => {
    const { key } = await accountWithKey(server, { prefix: "retry" });
    answers.set("/retry", (seen) => (seen === 0 ? 500 : 200));
    const { id, secret } = await hook(key, "/retry");
    await api("/api/v1/tasks", { key, method: "POST", body: { title: "Retried" } });
    // The first retry comes about 10 s after the first attempt.
    const [first, second] = await eventsAt("/retry", secret, 2);
    assert.equal(second.headers["webhook-id"], first.headers["webhook-id"]);
    assert.deepEqual(second.event, first.event);
    const { body } = await api(`/api/v1/webhooks/${id}/deliveries`, { key });
    assert.deepEqual(
      body.data.map((d) => [d.eventId, d.attempt, d.status]),
      [
        [first.headers["webhook-id"], 2, 200],
        [first.headers["webhook-id"], 1, 500],
      ],
    );
  });

  test("the calendar feed serves due tasks with alarms, parses with ical.js and Python's icalendar, and 404s once rotated", async () => {
    const { key, session } = await accountWithKey(server, { prefix: "feed" });
    await api("/api/v1/tasks", {
      key,
      method: "POST",
      body: { title: "Dentist", due: "2026-12-01T09:30:00Z", reminder: "2026-12-01T09:00:00Z" },
    });
    const made = await api("/account/feed", { key: session, method: "POST", body: {} });
    assert.equal(made.status, 201);
    const feed = await fetch(made.body.url);
    assert.equal(feed.status, 200);
    const text = await feed.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const [event] = calendar.getAllSubcomponents("vevent");
    assert.equal(new ICAL.Event(event).summary, "Dentist");
    assert.equal(String(event.getFirstSubcomponent("valarm").getFirstPropertyValue("trigger")), "-PT30M");
    // Python's icalendar (Debian's python3-icalendar, installed by .ci/run) reads it too.
    const python = spawnSync("/usr/bin/python3", ["-c", PYTHON_READER], { input: text, encoding: "utf8" });
    assert.equal(python.status, 0, python.stderr);
    assert.deepEqual(JSON.parse(python.stdout), [["Dentist", "-1 day, 23:30:00"]]);
    await api("/account/feed", { key: session, method: "POST", body: {} });
    assert.equal((await fetch(made.body.url)).status, 404);
  });
});
