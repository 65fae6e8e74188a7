import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { readPackBody } from "../../src/domain/calendars/catalogue";
import { CalendarManifest, CalendarPack, type CalendarManifestEntry } from "../../src/domain/calendars/schemas";
import { call, json } from "../helpers";

async function manifest(query = ""): Promise<CalendarManifest> {
  const res = await call(`/api/v1/calendars${query}`);
  expect(res.status).toBe(200);
  return CalendarManifest.parse(await res.json());
}

async function pack(id: string): Promise<CalendarPack> {
  const res = await call(`/api/v1/calendars/${id}`);
  expect(res.status, id).toBe(200);
  return CalendarPack.parse(await res.json());
}

const yearsOf = (entry: CalendarManifestEntry) =>
  Array.from({ length: entry.years.to - entry.years.from + 1 }, (_, i) => entry.years.from + i);

describe("calendar catalogue", () => {
  it("lists packs for at least 100 countries and the states of DE, US, CH, ES and AU", async () => {
    const { data, meta } = await manifest();
    expect(meta.count).toBe(data.length);
    expect(new Set(data.map((e) => e.country)).size).toBeGreaterThanOrEqual(100);
    const regions = (country: string) => data.filter((e) => e.country === country && e.region).length;
    expect(regions("DE")).toBe(16);
    expect(regions("US")).toBeGreaterThanOrEqual(50);
    expect(regions("CH")).toBeGreaterThanOrEqual(20);
    expect(regions("ES")).toBeGreaterThanOrEqual(15);
    expect(regions("AU")).toBeGreaterThanOrEqual(6);
    expect(data.map((e) => e.id)).toEqual(
      expect.arrayContaining(["de", "de-by", "us-ca", "jp", "ch-zh", "es-md", "au-nsw"]),
    );
    expect(new Set(data.map((e) => e.id)).size).toBe(data.length);
  });

  it("covers the previous, current and next two years", async () => {
    const { data } = await manifest();
    const year = new Date().getUTCFullYear();
    for (const entry of data) expect(entry.years).toEqual({ from: year - 1, to: year + 2 });
  });

  it("carries the CC BY-SA 3.0 licence and attribution in the manifest and in every pack", async () => {
    const { meta } = await manifest();
    expect(meta.license.id).toBe("CC-BY-SA-3.0");
    expect(meta.attribution).toMatch(/date-holidays.*CC BY-SA 3\.0/);
    const de = await pack("de");
    expect(de.license).toEqual(meta.license);
    expect(de.attribution).toBe(meta.attribution);
    expect(de.sources).toContain("https://de.wikipedia.org/wiki/Feiertage_in_Deutschland");
  });

  // Reads all 532 packs: under a loaded machine this takes seconds, past the default 5 s.
  it("loads every manifest entry's pack with the advertised fields, event count and sorted events", {
    timeout: 30_000,
  }, async () => {
    const { data } = await manifest();
    for (let i = 0; i < data.length; i += 50) {
      await Promise.all(
        data.slice(i, i + 50).map(async (entry) => {
          const res = await call(entry.url);
          expect(res.status, entry.id).toBe(200);
          const body = CalendarPack.parse(await res.json());
          const { license, attribution, sources, events, ...fields } = body;
          expect(fields, entry.id).toEqual(entry);
          expect(events.length, entry.id).toBe(entry.eventCount);
          expect(
            events.map((e) => e.date),
            entry.id,
          ).toEqual(events.map((e) => e.date).sort());
          expect(new Set(events.map((e) => e.uid)).size, entry.id).toBe(events.length);
          // A day off is a public or bank holiday (scripts/build-calendars.mjs), said on every event.
          const offTypes = ["public", "bank"];
          expect(
            events.filter((e) => e.dayOff !== offTypes.includes(e.type)),
            entry.id,
          ).toEqual([]);
          expect(license.id && attribution && sources, entry.id).toBeTruthy();
        }),
      );
    }
  });

  it("has German Unity Day, US Independence Day and Japanese New Year as public holidays every year", async () => {
    for (const [id, monthDay] of [
      ["de", "10-03"],
      ["us", "07-04"],
      ["jp", "01-01"],
    ] as const) {
      const p = await pack(id);
      for (const year of yearsOf(p)) {
        expect(p.events, `${id} ${year}`).toContainEqual(
          expect.objectContaining({ date: `${year}-${monthDay}`, type: "public" }),
        );
      }
    }
  });

  it("has Epiphany in Bavaria but not in Berlin", async () => {
    const [by, be] = await Promise.all([pack("de-by"), pack("de-be")]);
    for (const year of yearsOf(by)) {
      expect(by.events).toContainEqual(
        expect.objectContaining({ date: `${year}-01-06`, name: "Epiphany", type: "public" }),
      );
      expect(be.events.filter((e) => e.date === `${year}-01-06`)).toEqual([]);
    }
  });

  it("names holidays in English with the local name alongside", async () => {
    const de = await pack("de");
    expect(de.events).toContainEqual(expect.objectContaining({ name: "New Year's Day", localName: "Neujahr" }));
  });

  it("filters by country code in any case and by accent-insensitive name search", async () => {
    const germany = await manifest("?country=de");
    expect(germany.data.length).toBe(17);
    expect(germany.data.every((e) => e.country === "DE")).toBe(true);
    expect(germany.meta.count).toBe(17);
    expect((await manifest("?q=wurttemberg")).data.map((e) => e.id)).toEqual(["de-bw"]);
    expect((await manifest("?country=US&q=california")).data.map((e) => e.id)).toEqual(["us-ca"]);
    expect((await manifest("?q=no-such-place")).data).toEqual([]);
  });

  it("refuses a country filter that is not a two-letter code", async () => {
    const res = await call("/api/v1/calendars?country=Germany");
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe("validation_failed");
  });

  it("answers 404 pack_not_found as problem+json for unknown ids, also in the .ics form", async () => {
    for (const path of [
      "/api/v1/calendars/xx-nowhere",
      "/api/v1/calendars/xx-nowhere.ics",
      "/api/v1/calendars/..%2Fmanifest",
      "/api/v1/calendars/manifest",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = await json(res);
      expect(problem.code, path).toBe("pack_not_found");
      // Over REST the detail names the listing route; MCP names its tool instead (test/mcp/calendars.test.ts).
      expect(problem.detail, path).toContain("GET /api/v1/calendars lists them.");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("accepts upper-case ids", async () => {
    expect((await pack("DE-BY")).id).toBe("de-by");
  });
});

describe("calendar delivery", () => {
  for (const path of ["/api/v1/calendars", "/api/v1/calendars/de", "/api/v1/calendars/de.ics"]) {
    it(`${path}: public, shared-cacheable, strong ETag, 304 on If-None-Match`, async () => {
      const first = await call(path);
      expect(first.status).toBe(200);
      expect(first.headers.get("access-control-allow-origin")).toBe("*");
      expect(first.headers.get("cache-control")).toMatch(/public/);
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const body = await first.text();

      const again = await call(path);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe(body);

      const revalidated = await call(path, { headers: { "If-None-Match": etag! } });
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe("");
      expect(revalidated.headers.get("etag")).toBe(etag);
      expect(revalidated.headers.get("access-control-allow-origin")).toBe("*");

      const weakForm = await call(path, { headers: { "If-None-Match": `"stale", W/${etag}` } });
      expect(weakForm.status).toBe(304);

      const stale = await call(path, { headers: { "If-None-Match": '"stale"' } });
      expect(stale.status).toBe(200);
    });
  }

  it("serves a pack's ETag as the SHA-256 (first 128 bits) of the exact bytes it sends", async () => {
    for (const id of ["de", "us-ca", "jp"]) {
      const res = await call(`/api/v1/calendars/${id}`);
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await res.arrayBuffer()));
      const expected = btoa(String.fromCharCode(...digest.subarray(0, 16)))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
      expect(res.headers.get("etag")).toBe(`"${expected}"`);
    }
  });

  it("gives different packs and different filters different ETags", async () => {
    const tags = await Promise.all(
      ["/api/v1/calendars/de", "/api/v1/calendars/de-by", "/api/v1/calendars", "/api/v1/calendars?country=DE"].map(
        async (path) => (await call(path)).headers.get("etag"),
      ),
    );
    expect(new Set(tags).size).toBe(4);
  });

  it("answers a CORS preflight from any origin", async () => {
    const res = await call("/api/v1/calendars/de", {
      method: "OPTIONS",
      headers: {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
  });

  it("serves packs while the database is down", async () => {
    const down = () => {
      throw new Error("D1 is down");
    };
    const brokenDb = { prepare: down, batch: down, exec: down, dump: down, withSession: down };
    const app = createApp();
    for (const path of ["/api/v1/calendars", "/api/v1/calendars/de", "/api/v1/calendars/de.ics"]) {
      const res = await app.fetch(new Request(`http://example.com${path}`), {
        ...env,
        DB: brokenDb as unknown as D1Database,
      });
      expect(res.status, path).toBe(200);
    }
  });

  it("is described in the OpenAPI document", async () => {
    const res = await call("/api/v1/openapi.json");
    expect(res.status, await res.clone().text()).toBe(200);
    const doc = await json(res);
    expect(doc.paths["/calendars"].get.operationId).toBe("listCalendarPacks");
    expect(doc.paths["/calendars/{id}"].get.operationId).toBe("getCalendarPack");
    expect(doc.paths["/calendars/{id}.ics"].get.operationId).toBe("getCalendarPackIcs");
    expect(doc.paths["/calendars/{id}"].get.responses["404"]).toBeDefined();
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["CalendarManifest", "CalendarPack", "CalendarEvent"]),
    );
  });
});

describe("pack bodies in memory", () => {
  it("reads a pack's file from ASSETS once, then serves the same bytes from the isolate", async () => {
    let fetches = 0;
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      fetches++;
      return env.ASSETS.fetch(input, init);
    };
    const counting = { fetch } as unknown as Fetcher;
    const first = await readPackBody(counting, "de");
    const second = await readPackBody(counting, "de");
    expect(fetches).toBe(1);
    expect(new TextDecoder().decode(second)).toBe(new TextDecoder().decode(first));
    expect(CalendarPack.parse(JSON.parse(new TextDecoder().decode(second))).id).toBe("de");
    await expect(readPackBody(counting, "xx-nope")).rejects.toMatchObject({ code: "pack_not_found" });
  });
});
