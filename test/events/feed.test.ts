import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { call, createTask, grant, json, maxUser } from "../helpers";

/** The feed's path from the account page's answer (its absolute URL), and the answer itself. */
async function rotate(session: string) {
  const res = await call("/account/feed", { token: session, body: {} });
  expect(res.status).toBe(201);
  const made = await json(res);
  return { ...made, path: new URL(made.url).pathname };
}

const parse = (text: string) => new ICAL.Component(ICAL.parse(text));

describe("calendar feed", () => {
  it("serves the open tasks that have a due, with alarms and rules, and parses with ical.js", async () => {
    const user = await maxUser("feed");
    const allDay = await createTask(user.key, {
      title: "Renew passport; bring photos",
      due: "2026-12-24",
      reminder: "2026-12-23T18:00:00Z",
      notes: "Two photos,\nsigned.",
    });
    const timed = await createTask(user.key, {
      title: "Dentist",
      due: "2026-12-01T09:30:00+01:00",
      reminder: "2026-12-01T08:00:00+01:00",
      repeat: "FREQ=MONTHLY",
    });
    await createTask(user.key, { title: "No due" });
    const done = await createTask(user.key, { title: "Done", due: "2026-12-02" });
    await call(`/api/v1/tasks/${done.id}`, { method: "PATCH", token: user.key, body: { completed: true } });

    const feed = await rotate(user.session);
    expect(feed.webcalUrl).toBe(feed.url.replace("http:", "webcal:"));
    // The account's id, 32 random characters and their MAC (22): src/control/feed-tokens.ts.
    expect(feed.path).toMatch(/^\/feeds\/[0-9a-f]{32}[0-9A-Za-z]{54}\.ics$/);
    const res = await call(feed.path);
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/calendar; charset=utf-8"]);
    const text = await res.text();
    expect(text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n");
    expect(text).toContain("X-PUBLISHED-TTL:PT1H\r\n");

    const vevents = parse(text).getAllSubcomponents("vevent");
    expect(vevents.map((v) => new ICAL.Event(v).summary)).toEqual(["Dentist", "Renew passport; bring photos"]);
    const [dentist, passport] = vevents.map((v) => new ICAL.Event(v));
    expect(passport!.uid).toBe(`${allDay.id}@tasks.todo-calendar`);
    expect(passport!.startDate.isDate).toBe(true);
    expect(passport!.startDate.toString()).toBe("2026-12-24");
    expect(passport!.description).toBe("Two photos,\nsigned.");
    // The account's time zone is UTC: the all-day task starts at midnight UTC, the reminder 6 h before.
    expect(vevents[1]!.getFirstSubcomponent("valarm")!.getFirstPropertyValue("action")).toBe("DISPLAY");
    expect(String(vevents[1]!.getFirstSubcomponent("valarm")!.getFirstPropertyValue("trigger"))).toBe("-PT6H");
    expect(dentist!.uid).toBe(`${timed.id}@tasks.todo-calendar`);
    expect(dentist!.startDate.toJSDate().toISOString()).toBe("2026-12-01T08:30:00.000Z");
    expect(String(vevents[0]!.getFirstSubcomponent("valarm")!.getFirstPropertyValue("trigger"))).toBe("-PT1H30M");
    expect(String(vevents[0]!.getFirstPropertyValue("rrule"))).toBe("FREQ=MONTHLY");
  });

  it("answers 304 to its ETag, and a new ETag when a task changes", async () => {
    const user = await maxUser("etag");
    const task = await createTask(user.key, { title: "Due", due: "2026-12-24" });
    const { path } = await rotate(user.session);
    const first = await call(path);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await call(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
    await call(`/api/v1/tasks/${task.id}`, { method: "PATCH", token: user.key, body: { title: "Due, renamed" } });
    const changed = await call(path, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("answers 404 once rotated or turned off, and 403 when Max lapsed", async () => {
    const user = await maxUser("rotate");
    const old = await rotate(user.session);
    const current = await rotate(user.session);
    const rotated = await call(old.path);
    expect([rotated.status, (await json(rotated)).code]).toEqual([404, "not_found"]);
    expect((await call(current.path)).status).toBe(200);
    expect(await json(await call("/account/feed", { token: user.session }))).toMatchObject({ enabled: true });
    await grant(user.email, "free");
    const lapsed = await call(current.path);
    expect([lapsed.status, (await json(lapsed)).code]).toEqual([403, "max_required"]);
    expect((await call("/account/feed", { method: "DELETE", token: user.session })).status).toBe(204);
    expect((await call(current.path)).status).toBe(404);
    expect(await json(await call("/account/feed", { token: user.session }))).toEqual({ enabled: false });
  });

  it("never carries another account's task, nor answers to a token moved to another account", async () => {
    const [a, b] = [await maxUser("feed-a"), await maxUser("feed-b")];
    await createTask(a.key, { title: "A's", due: "2026-12-24" });
    await createTask(b.key, { title: "B's", due: "2026-12-24" });
    const [feedA, feedB] = [await rotate(a.session), await rotate(b.session)];
    const summaries = async (path: string) =>
      parse(await (await call(path)).text())
        .getAllSubcomponents("vevent")
        .map((v) => new ICAL.Event(v).summary);
    expect(await summaries(feedA.path)).toEqual(["A's"]);
    expect(await summaries(feedB.path)).toEqual(["B's"]);
    // A's secret with B's account id in front: B's object does not know it.
    const swapped = `/feeds/${feedB.path.slice(7, 39)}${feedA.path.slice(39)}`;
    expect((await call(swapped)).status).toBe(404);
    expect((await call("/feeds/nonsense.ics")).status).toBe(404);
    expect((await call(feedA.path.replace(".ics", ".txt"))).status).toBe(404);
  });
});
