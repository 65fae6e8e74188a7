import { describe, expect, it } from "vitest";
import { SHORT_ATTRIBUTION } from "../../src/domain/calendars/holidays";
import { call, createKey, json, signUp } from "../helpers";
import { callOk, mcpClient, toolErrorOf } from "./client";

/** A key of an account without Max: calendar packs need no membership. */
async function freeClient() {
  const account = await signUp("free");
  return mcpClient((await createKey(account.session)).key);
}

describe("list_calendar_packs", () => {
  it("works without Max, pages the catalogue with absolute URLs, and its pages add up to GET /api/v1/calendars", async () => {
    const client = await freeClient();
    const rest = (await json(await call("/api/v1/calendars"))).data as { id: string; url: string; icsUrl: string }[];
    const first = await callOk(client, "list_calendar_packs");
    expect(first).toMatchObject({ count: 20, total: rest.length, nextCursor: "20" });
    expect(first.hint).toContain("nextCursor");
    expect(first.packs[0]).toMatchObject({
      id: rest[0]!.id,
      url: `http://example.com${rest[0]!.url}`,
      icsUrl: `http://example.com${rest[0]!.icsUrl}`,
    });
    const ids: string[] = [];
    for (let page = await callOk(client, "list_calendar_packs", { limit: 100 }); ; ) {
      ids.push(...page.packs.map((p: { id: string }) => p.id));
      if (!page.nextCursor) break;
      page = await callOk(client, "list_calendar_packs", { limit: 100, cursor: page.nextCursor });
    }
    expect(ids).toEqual(rest.map((p) => p.id));
  });

  it.each([
    ["Bavaria", ["de-by"]],
    ["bavaria germany", ["de-by"]],
    ["North Rhine-Westphalia", ["de-nw"]],
    ["UK", ["gb", "gb-ald", "gb-eng", "gb-nir", "gb-sct", "gb-wls"]],
  ])("finds %s by its English name or short form", async (query, expected) => {
    const { packs } = await callOk(await freeClient(), "list_calendar_packs", { query });
    expect(packs.map((p: { id: string }) => p.id)).toEqual(expected);
  });

  it.each(["USA", "United States", "Germany"])("finds every pack of a country named %s", async (query) => {
    const { packs, total } = await callOk(await freeClient(), "list_calendar_packs", { query, limit: 100 });
    expect(total).toBeGreaterThan(10);
    expect(new Set(packs.map((p: { country: string }) => p.country)).size).toBe(1);
  });

  it("narrows by country code in any case", async () => {
    const client = await freeClient();
    const { packs } = await callOk(client, "list_calendar_packs", { country: "de" });
    expect(packs.length).toBeGreaterThan(1);
    expect(packs.every((p: { country: string }) => p.country === "DE")).toBe(true);
    expect(packs.map((p: { id: string }) => p.id)).toContain("de-by");
  });

  it("narrows by a name query, case-insensitively", async () => {
    const client = await freeClient();
    const { packs } = await callOk(client, "list_calendar_packs", { query: "Bayern" });
    expect(packs.map((p: { id: string }) => p.id)).toEqual(["de-by"]);
  });

  it("returns an empty list when nothing matches", async () => {
    const client = await freeClient();
    const empty = await callOk(client, "list_calendar_packs", { query: "Atlantis" });
    expect(empty).toMatchObject({ packs: [], count: 0, total: 0 });
    expect(empty.hint).toContain("ISO code");
  });

  it("refuses a country that is not a two-letter code with a tool error naming the field", async () => {
    const client = await freeClient();
    const result = await client.callTool({ name: "list_calendar_packs", arguments: { country: "Germany" } });
    expect(toolErrorOf(result).fields).toEqual(["country"]);
  });
});

describe("list_holidays", () => {
  it("answers 'is 2026-10-03 a holiday in Bavaria?' in one call, without Max", async () => {
    const client = await freeClient();
    const result = await callOk(client, "list_holidays", {
      country: "DE",
      region: "Bavaria",
      from: "2026-10-03",
      to: "2026-10-03",
    });
    expect(result.pack).toMatchObject({ id: "de-by", name: "Bayern (Germany)" });
    expect(result.events).toEqual([
      {
        date: "2026-10-03",
        name: expect.any(String),
        localName: "Tag der Deutschen Einheit",
        type: "public",
        dayOff: true,
      },
    ]);
    expect(result.attribution).toBe(SHORT_ATTRIBUTION);
    const workday = await callOk(client, "list_holidays", { pack: "de-by", from: "2026-10-05", to: "2026-10-05" });
    expect(workday).toMatchObject({ events: [], count: 0 });
  });

  it("gives the same events as the pack over REST, for a year and one type", async () => {
    const client = await freeClient();
    const rest = await json(await call("/api/v1/calendars/de-by"));
    const expected = rest.events.filter(
      (e: { date: string; type: string }) => e.date.startsWith("2026") && e.type === "public",
    );
    const { events, from, to } = await callOk(client, "list_holidays", { pack: "DE-BY", year: 2026, type: "public" });
    expect([from, to]).toEqual(["2026-01-01", "2026-12-31"]);
    expect(events.map((e: { date: string; name: string }) => [e.date, e.name])).toEqual(
      expected.map((e: any) => [e.date, e.name]),
    );
  });

  it("defaults to the current year", async () => {
    const { from, to } = await callOk(await freeClient(), "list_holidays", { country: "de" });
    const year = new Date().getUTCFullYear();
    expect([from, to]).toEqual([`${year}-01-01`, `${year}-12-31`]);
  });

  it("says plainly whether a day is off: Christmas 2026 in Japan is an observance, a working day", async () => {
    const client = await freeClient();
    const day = { from: "2026-12-25", to: "2026-12-25" };
    const japan = await callOk(client, "list_holidays", { country: "JP", ...day });
    expect(japan.events).toEqual([expect.objectContaining({ type: "observance", dayOff: false })]);
    const germany = await callOk(client, "list_holidays", { country: "DE", ...day });
    expect(germany.events).toEqual([expect.objectContaining({ type: "public", dayOff: true })]);
  });

  it.each([
    ["BY", "de-by"],
    ["de-by", "de-by"],
    ["bayern", "de-by"],
    ["Bavaria, Germany", "de-by"],
  ])("finds region %s of DE by its code or a name", async (region, id) => {
    const result = await callOk(await freeClient(), "list_holidays", { country: "DE", region, year: 2026 });
    expect([result.pack.id, result.note]).toEqual([id, undefined]);
  });

  it("falls back to the country's pack for a region the data knows without holidays of its own, and says so", async () => {
    const result = await callOk(await freeClient(), "list_holidays", { country: "IT", region: "Lombardy", year: 2026 });
    expect(result.pack.id).toBe("it");
    expect(result.note).toContain("Lombardy (IT-25) has no holidays of its own");
    expect(result.count).toBeGreaterThan(5);
    // A country whose data has no regions: every region observes its holidays.
    const tokyo = await callOk(await freeClient(), "list_holidays", { country: "JP", region: "Tokyo", year: 2026 });
    expect([tokyo.pack.id, tokyo.note]).toEqual(["jp", expect.stringContaining("no regional holidays")]);
  });

  it.each([
    ["Bavarria", "Did you mean Bavaria (DE-BY)?"],
    ["Nordrhein Westfahlen", "Did you mean Nordrhein-Westfalen (DE-NW)?"],
    ["XX", "Its regions: BB (Brandenburg), BE (Berlin)"],
  ])("refuses region %s of DE, which the data does not know: %s", async (region, suggestion) => {
    const client = await freeClient();
    const error = toolErrorOf(await client.callTool({ name: "list_holidays", arguments: { country: "DE", region } }));
    expect([error.code, error.fields]).toEqual(["validation_failed", ["region"]]);
    expect(error.text).toContain(suggestion);
    expect(error.text).toContain("Leave out `region` for DE's national holidays.");
  });

  it("says when the range lies outside the covered years", async () => {
    const result = await callOk(await freeClient(), "list_holidays", { pack: "de", year: 1990 });
    expect(result).toMatchObject({ events: [], count: 0 });
    expect(result.note).toContain("covers");
  });

  it("points to list_calendar_packs, not to REST, for an unknown pack (issue 35 item 20)", async () => {
    const error = toolErrorOf(
      await (await freeClient()).callTool({ name: "list_holidays", arguments: { pack: "zz-nowhere" } }),
    );
    expect(error.code).toBe("pack_not_found");
    expect(error.line("Hint")).toContain("list_calendar_packs");
    expect(error.text).not.toContain("/api/v1");
  });

  it.each([
    [{}, "pack"],
    [{ pack: "zz-nowhere" }, "pack_not_found"],
    [{ country: "Germany" }, "country"],
    [{ pack: "de", from: "2026-12-31", to: "2026-01-01" }, "to"],
    [{ pack: "de", from: "31.12.2026" }, "from: must be a date, YYYY-MM-DD"],
    [{ pack: "de", type: "holiday" }, "type"],
  ])("refuses %j with a tool error naming %s", async (args, expected) => {
    const error = toolErrorOf(await (await freeClient()).callTool({ name: "list_holidays", arguments: args }));
    const [field, message] = expected.split(": ");
    if (expected === "pack_not_found") expect(error.code).toBe("pack_not_found");
    else expect([error.code, error.fields]).toEqual(["validation_failed", [field]]);
    if (message) expect(error.line("Fields")).toContain(message);
  });
});
