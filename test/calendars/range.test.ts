import { describe, expect, it } from "vitest";
import { SHORT_ATTRIBUTION } from "../../src/domain/calendars/holidays";
import { CalendarPack } from "../../src/domain/calendars/schemas";
import { RANGE_BYTES } from "../../src/http/v1/calendars";
import { call, createKey, json, signUp } from "../helpers";
import { callOk, mcpClient } from "../mcp/client";

/** GET /api/v1/calendars/{id} with from, to or year: the rules of list_holidays, the caching of every pack. */

async function range(path: string) {
  const res = await call(path);
  expect(res.status, path).toBe(200);
  return { res, pack: CalendarPack.parse(await res.json()) };
}

describe("GET /api/v1/calendars/{id} with a range", () => {
  it("answers 'is 2026-10-03 a holiday in Bavaria?' with that day's events only, counted, and the short attribution", async () => {
    const whole = CalendarPack.parse(await json(await call("/api/v1/calendars/de-by")));
    const { pack } = await range("/api/v1/calendars/de-by?from=2026-10-03&to=2026-10-03");
    expect(pack.events).toEqual([expect.objectContaining({ date: "2026-10-03", type: "public", dayOff: true })]);
    const { events, ...rest } = pack;
    const { events: all, ...wholeRest } = whole;
    // The range counts its own events and carries the attribution once, short (issue 35, items 23 and 24).
    expect(rest).toEqual({ ...wholeRest, eventCount: 1, attribution: SHORT_ATTRIBUTION });
    expect(wholeRest.attribution).toMatch(/^Holiday data from date-holidays .*CC BY-SA 3\.0/);
    expect(SHORT_ATTRIBUTION.length).toBeLessThan(wholeRest.attribution.length / 2);
    const [small, large] = [JSON.stringify(pack).length, JSON.stringify(whole).length];
    console.log(`de-by, one day: ${small} bytes; the whole pack: ${large} bytes`);
    expect(small).toBeLessThan(3000);
    const workday = await range("/api/v1/calendars/de-by?from=2026-10-05&to=2026-10-05");
    expect(workday.pack.events).toEqual([]);
    expect(workday.pack.eventCount).toBe(0);
    // What the description and SKILL.md say a range costs (GET /api/v1/calendars/{id}).
    const twoDays = await (await call("/api/v1/calendars/de-by?from=2026-10-03&to=2026-10-04")).text();
    console.log(`de-by, two days: ${new TextEncoder().encode(twoDays).length} bytes`);
    expect(new TextEncoder().encode(twoDays).length).toBeLessThanOrEqual(RANGE_BYTES);
  });

  it("takes the same range as list_holidays: a year, a year with one bound, one bound alone", async () => {
    const account = await signUp("range");
    const client = await mcpClient((await createKey(account.session)).key);
    for (const [query, args] of [
      ["year=2026", { year: 2026 }],
      ["year=2026&from=2026-06-01", { year: 2026, from: "2026-06-01" }],
      ["from=2027-12-01", { from: "2027-12-01" }],
      ["to=2025-01-10", { to: "2025-01-10" }],
    ] as const) {
      const { pack } = await range(`/api/v1/calendars/us-ca?${query}`);
      const listed = await callOk(client, "list_holidays", { pack: "us-ca", ...args });
      expect(
        pack.events.map((e) => [e.date, e.name, e.dayOff]),
        query,
      ).toEqual(listed.events.map((e: { date: string; name: string; dayOff: boolean }) => [e.date, e.name, e.dayOff]));
      expect(pack.events.length, query).toBeGreaterThan(0);
    }
  });

  it.each([
    ["from=31.12.2026", "from", "YYYY-MM-DD"],
    ["to=2026-02-30", "to", "YYYY-MM-DD"],
    ["from=2026-12-31&to=2026-01-01", "to", "must not be before `from`"],
    ["year=1800", "year", ""],
    ["year=next", "year", ""],
    ["year=2201", "year", ""],
    ["year=2026.5", "year", "expected int"],
  ])("refuses %s as list_holidays does: 400 naming %s", async (query, path, message) => {
    const res = await call(`/api/v1/calendars/de?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await json(res);
    expect(body.code).toBe("validation_failed");
    expect(body.errors).toEqual([{ path, message: expect.stringContaining(message) }]);
  });

  it("has a strong ETag of its own bytes, different from the whole pack's, and answers 304 to it", async () => {
    const path = "/api/v1/calendars/de?year=2026";
    const first = await call(path);
    const etag = first.headers.get("etag");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await first.arrayBuffer()));
    const expected = btoa(String.fromCharCode(...digest.subarray(0, 16)))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    expect(etag).toBe(`"${expected}"`);
    expect(first.headers.get("cache-control")).toMatch(/public/);
    expect(etag).not.toBe((await call("/api/v1/calendars/de")).headers.get("etag"));
    expect(etag).not.toBe((await call("/api/v1/calendars/de?year=2027")).headers.get("etag"));
    const revalidated = await call(path, { headers: { "If-None-Match": etag! } });
    expect([revalidated.status, await revalidated.text()]).toEqual([304, ""]);
  });

  it("answers 404 pack_not_found for an unknown id with a range", async () => {
    const res = await call("/api/v1/calendars/xx-nowhere?year=2026");
    expect([res.status, (await json(res)).code]).toEqual([404, "pack_not_found"]);
  });
});
