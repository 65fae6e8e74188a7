import * as z from "zod";

/**
 * Public calendar packs, shared by REST (OpenAPI) and MCP (list_calendar_packs).
 * The generator (scripts/build-calendars.mjs) writes files of exactly these shapes;
 * the tests parse every generated file with them.
 */

export const PackId = z
  .string()
  .regex(/^[a-z]{2}(-[a-z0-9]+)?$/)
  .meta({
    description:
      "Stable pack id: the lower-case ISO 3166-1 country code (`de`), or country and subdivision (`de-by`, `us-ca`).",
    example: "de-by",
  });

export const EventType = z.enum(["public", "bank", "school", "optional", "observance"]).meta({
  description:
    "`public`: public holiday, most people are off. `bank`: banks and offices closed. `school`: school holiday, a working day for most people. `optional`: some people take the day off, most work. `observance`: remembered, but a normal working day. `dayOff` says which are days off.",
  example: "public",
});
export type EventType = z.infer<typeof EventType>;

const IsoDate = z.iso.date();

export const CalendarEvent = z
  .object({
    uid: z.string().meta({
      description: "Stable identifier of this occurrence. Unchanged by rebuilds; also the iCalendar UID.",
      example: "de-by-20261003-5f1c2a9e",
    }),
    date: IsoDate.meta({ description: "First day (local calendar date), `YYYY-MM-DD`.", example: "2026-10-03" }),
    endDate: IsoDate.optional().meta({
      description: "Last day (inclusive) of a holiday that spans several days; absent for one-day holidays.",
      example: "2026-10-04",
    }),
    name: z.string().meta({
      description: "English name where the data has one, otherwise the local name.",
      example: "National Holiday",
    }),
    localName: z.string().optional().meta({
      description: "Name in the pack's first language, when it differs from `name`.",
      example: "Tag der Deutschen Einheit",
    }),
    type: EventType,
    dayOff: z.boolean().meta({
      description:
        "`true` when most people have the day off: `public` and `bank` days. `false` for `school`, `optional` and `observance` days, which are working days for most people.",
      example: true,
    }),
    substitute: z.boolean().optional().meta({
      description: "`true` when this day replaces a holiday that fell on a weekend or another holiday.",
      example: true,
    }),
  })
  .meta({ id: "CalendarEvent", description: "One holiday occurrence: an all-day event." });
export type CalendarEvent = z.infer<typeof CalendarEvent>;

export const License = z
  .object({
    id: z.string().meta({ description: "SPDX identifier.", example: "CC-BY-SA-3.0" }),
    name: z
      .string()
      .meta({ description: "Name of the licence.", example: "Creative Commons Attribution-ShareAlike 3.0 Unported" }),
    url: z
      .string()
      .meta({ description: "Text of the licence.", example: "https://creativecommons.org/licenses/by-sa/3.0/" }),
  })
  .meta({
    id: "CalendarLicense",
    description: "Licence of the holiday data. Reusers must keep the attribution and share alike.",
  });
export type License = z.infer<typeof License>;

export const CalendarManifestEntry = z
  .object({
    id: PackId,
    name: z
      .string()
      .meta({ description: "English name of the country, or `Region (Country)`.", example: "Bayern (Germany)" }),
    country: z.string().meta({ description: "ISO 3166-1 alpha-2 country code, upper case.", example: "DE" }),
    region: z.string().optional().meta({
      description:
        "Subdivision code within the country (the ISO 3166-2 suffix where one exists); absent for country packs.",
      example: "BY",
    }),
    languages: z.array(z.string()).meta({
      description: "ISO 639-1 codes of the languages the data names holidays in; the first is the local language.",
      example: ["de", "en"],
    }),
    years: z
      .object({
        from: z.number().int().meta({ description: "First covered year.", example: 2025 }),
        to: z.number().int().meta({ description: "Last covered year.", example: 2028 }),
      })
      .meta({
        description: "Calendar years covered, inclusive: the previous, current and next two years at build time.",
      }),
    eventCount: z.number().int().meta({ description: "Number of events in the pack.", example: 142 }),
    url: z.string().meta({
      description: "The pack as JSON: a root-relative URL, resolve it against the API origin.",
      example: "/api/v1/calendars/de-by",
    }),
    icsUrl: z.string().meta({
      description: "The pack as an iCalendar (RFC 5545) feed to subscribe to: a root-relative URL.",
      example: "/api/v1/calendars/de-by.ics",
    }),
  })
  .meta({ id: "CalendarManifestEntry", description: "A public holiday calendar pack, without its events." });
export type CalendarManifestEntry = z.infer<typeof CalendarManifestEntry>;

export const Attribution = z.string().meta({
  description: "Attribution required by the data licence. Show it wherever the data is shown.",
  example: "Holiday data: date-holidays by commenthol and contributors, based on Wikipedia articles, CC BY-SA 3.0.",
});

export const CalendarPack = CalendarManifestEntry.extend({
  license: License,
  attribution: Attribution,
  sources: z.array(z.string()).meta({
    description: "Pages the holiday data was compiled from (attribution of the original authors).",
    example: ["https://de.wikipedia.org/wiki/Feiertage_in_Deutschland"],
  }),
  events: z.array(CalendarEvent).meta({ description: "Holidays, sorted by date." }),
}).meta({ id: "CalendarPack", description: "A public holiday calendar: its manifest entry plus its events." });
export type CalendarPack = z.infer<typeof CalendarPack>;

export const CalendarManifest = z
  .object({
    data: z
      .array(CalendarManifestEntry)
      .meta({ description: "The packs: all of them, or those matching the filters (`country`, `q`)." }),
    meta: z
      .object({
        count: z.number().int().meta({ description: "Number of packs in `data`.", example: 1 }),
        generatedAt: z.string().meta({
          description:
            "When the catalogue was computed: midnight UTC of the build day. Packs change only when the data or the covered years change.",
          example: "2026-11-22T00:00:00Z",
        }),
        dataVersion: z.string().meta({ description: "Version of the date-holidays data set.", example: "2026-09-20" }),
        license: License,
        attribution: Attribution,
      })
      .meta({ description: "About the catalogue: size, build day, data version and licence." }),
  })
  .meta({ id: "CalendarManifest", description: "The catalogue of public holiday calendar packs." });
export type CalendarManifest = z.infer<typeof CalendarManifest>;

/** A country as people and APIs name it: its ISO 3166-1 alpha-2 code, in any case. */
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { message: "must be an ISO 3166-1 alpha-2 code such as DE" })
  .meta({ description: "ISO 3166-1 alpha-2 country code, any case.", example: "DE" });

/** A bound of a holiday range (list_holidays, GET /api/v1/calendars/{id}): the message says the format. */
export const HolidayDay = z.iso.date({ error: "must be a date, YYYY-MM-DD, e.g. 2026-10-03" });
/** A whole year of a holiday range. */
export const HolidayYear = z.number().int().min(1900).max(2200);

export const PackFilter = z.object({
  country: CountryCode.optional().meta({
    description: "Only packs of this ISO 3166-1 alpha-2 country code (any case).",
  }),
  query: z.string().max(100).optional().meta({
    description:
      "Only packs this text names: every word found in the pack's name, id, country code or English names and short forms (`Bavaria`, `USA`, `UK`), case- and accent-insensitive.",
    example: "bayern",
  }),
});
export type PackFilter = z.infer<typeof PackFilter>;
