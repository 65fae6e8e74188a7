// Generates the public holiday calendar packs from the date-holidays data into static/calendars/:
//   manifest.json       the catalogue (CalendarManifest in src/domain/calendars/schemas.ts)
//   packs/<id>.json     one CalendarPack per country, and per subdivision whose holidays differ
//   regions.json        every subdivision the data knows, with or without a pack of its own:
//                       `{ [country]: [[code, name], …] }`, so list_holidays can tell a misspelt
//                       region from a real one that observes its country's holidays
// Run by `npm run assets` (dev, check/test, deploy). Plain Node ESM for Node 20 and 22.
//
// Deterministic: the covered years and `generatedAt` come from SOURCE_DATE_EPOCH (seconds) when set,
// otherwise from today's UTC date. Same reference day and same date-holidays version, same bytes.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Holidays from "date-holidays";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "static", "calendars");
const dataDir = join(dirname(createRequire(import.meta.url).resolve("date-holidays")), "..", "data");

const epoch = process.env.SOURCE_DATE_EPOCH;
const reference = epoch ? new Date(Number(epoch) * 1000) : new Date();
if (Number.isNaN(reference.getTime())) throw new Error(`SOURCE_DATE_EPOCH is not a number: ${epoch}`);
const currentYear = reference.getUTCFullYear();
const years = { from: currentYear - 1, to: currentYear + 2 };
const generatedAt = `${reference.toISOString().slice(0, 10)}T00:00:00Z`;
const data = JSON.parse(readFileSync(join(dataDir, "holidays.json"), "utf8"));
const dataVersion = data.version;

// date-holidays ships its data under CC BY-SA 3.0 (its LICENSE and data/holidays.json `license`;
// package.json says CC-BY-3.0, the stricter BY-SA from the LICENSE file is what we honour).
const license = {
  id: "CC-BY-SA-3.0",
  name: "Creative Commons Attribution-ShareAlike 3.0 Unported",
  url: "https://creativecommons.org/licenses/by-sa/3.0/",
};
const attribution =
  `Holiday data from date-holidays ${dataVersion} (https://github.com/commenthol/date-holidays) by commenthol and contributors, ` +
  "largely based on Wikipedia articles (see `sources`), licensed under CC BY-SA 3.0. " +
  "Changed: rules computed into dated events. This data is shared under the same licence.";

/** `# @attrib <url>` lines of the country's YAML file: the pages its data was compiled from. */
function sourcesOf(country) {
  let text = "";
  try {
    text = readFileSync(join(dataDir, "countries", `${country}.yaml`), "utf8");
  } catch {
    return [];
  }
  const urls = [...text.matchAll(/#\s*@attrib\s+(\S+)/g)].map((m) => m[1]);
  return [...new Set(urls)].sort();
}

/** Strong ETag: the first 128 bits of the body's SHA-256, base64url (as the Worker computes for dynamic bodies). */
const etagOf = (body) => `"${createHash("sha256").update(body).digest().subarray(0, 16).toString("base64url")}"`;
const shortHash = (text) => createHash("sha256").update(text).digest("hex").slice(0, 8);
const utcDay = (date) => date.toISOString().slice(0, 10);

const substituteNames = data.names?.substitutes?.name ?? {};
const pick = (names, languages) =>
  typeof names === "string" ? names : languages.map((lang) => names?.[lang]).find((name) => name);

/**
 * Whether most people have the day off: `public` (public holiday) and `bank` (banks and offices
 * closed). `school`, `optional` and `observance` days are working days for most people. The same rule
 * is described on CalendarEvent.dayOff (src/domain/calendars/schemas.ts) and tested on every pack.
 */
const DAY_OFF_TYPES = new Set(["public", "bank"]);

/** All holidays of a country or subdivision in the covered years, sorted by date. */
function eventsOf(id, country, state) {
  // In UTC, `end` carries the local wall-clock end, so its day is the holiday's last local day.
  const hd = state ? new Holidays(country, state, { timezone: "UTC" }) : new Holidays(country, { timezone: "UTC" });
  // getHolidays() prepends its language to the array getLanguages() returns: copy it first.
  const languages = [...new Set(hd.getLanguages())];
  const localLanguages = [languages[0], ...languages];
  const events = [];
  const seen = new Set();
  for (let year = years.from; year <= years.to; year++) {
    // Computing dates is the expensive part, so the local names are looked up in the rules (as
    // getHolidays(year, local) would translate them) instead of computing every year twice.
    for (const holiday of hd.getHolidays(year, "en")) {
      const date = holiday.date.slice(0, 10);
      const lastDay = utcDay(new Date(holiday.end.getTime() - 1));
      let localName = pick(hd.getRule(holiday.rule)?.name, localLanguages);
      if (localName && holiday.substitute) localName += ` (${pick(substituteNames, localLanguages)})`;
      let uid = `${id}-${date.replaceAll("-", "")}-${shortHash(`${holiday.rule}|${holiday.type}`)}`;
      for (let n = 2; seen.has(uid); n++) uid = `${uid.replace(/~\d+$/, "")}~${n}`;
      seen.add(uid);
      events.push({
        uid,
        date,
        ...(lastDay > date ? { endDate: lastDay } : {}),
        name: holiday.name,
        ...(localName && localName !== holiday.name ? { localName } : {}),
        type: holiday.type,
        dayOff: DAY_OFF_TYPES.has(holiday.type),
        ...(holiday.substitute ? { substitute: true } : {}),
      });
    }
  }
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  return { languages, events };
}

/** What a subdivision pack must differ in to be worth publishing next to its country's. */
const signature = (events) =>
  events.map((e) => `${e.date}|${e.endDate ?? ""}|${e.name}|${e.type}|${e.substitute ?? ""}`).join("\n");

// Skip the ~4 s of date computation when nothing that shapes the output changed since the last run.
const stampFile = join(root, "node_modules", ".cache", "build-calendars.stamp");
const stamp = createHash("sha256")
  .update(
    [
      readFileSync(fileURLToPath(import.meta.url), "utf8"),
      dataVersion,
      generatedAt,
      readFileSync(join(dataDir, "holidays.json")),
    ].join("\0"),
  )
  .digest("hex");
if (!process.argv.includes("--force") && existsSync(join(outDir, "manifest.json")) && existsSync(stampFile)) {
  const [previous, files] = readFileSync(stampFile, "utf8").split(" ");
  if (previous === stamp && Number(files) === readdirSync(join(outDir, "packs")).length) {
    console.log("calendars: up to date (static/calendars/); --force to rebuild");
    process.exit(0);
  }
}

const hd = new Holidays();
const countries = hd.getCountries("en");
const packs = [];
const regions = {};
for (const country of Object.keys(countries).sort()) {
  const id = country.toLowerCase();
  const sources = sourcesOf(country);
  const base = eventsOf(id, country);
  packs.push({ id, name: countries[country], country, ...base, sources });
  const states = hd.getStates(country, "en") ?? {};
  if (Object.keys(states).length) regions[country] = Object.entries(states).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const state of Object.keys(states).sort()) {
    const stateId = `${id}-${state.toLowerCase()}`;
    if (!/^[a-z]{2}-[a-z0-9]+$/.test(stateId)) throw new Error(`unexpected subdivision code ${country}-${state}`);
    const own = eventsOf(stateId, country, state);
    if (signature(own.events) === signature(base.events)) continue;
    packs.push({
      id: stateId,
      name: `${states[state]} (${countries[country]})`,
      country,
      region: state,
      ...own,
      sources,
    });
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, "packs"), { recursive: true });

const manifest = [];
const etags = {};
let bytes = 0;
for (const pack of packs.sort((a, b) => (a.id < b.id ? -1 : 1))) {
  const entry = {
    id: pack.id,
    name: pack.name,
    country: pack.country,
    ...(pack.region ? { region: pack.region } : {}),
    languages: pack.languages,
    years,
    eventCount: pack.events.length,
    url: `/api/v1/calendars/${pack.id}`,
    icsUrl: `/api/v1/calendars/${pack.id}.ics`,
  };
  manifest.push(entry);
  const body = JSON.stringify({ ...entry, license, attribution, sources: pack.sources, events: pack.events });
  writeFileSync(join(outDir, "packs", `${pack.id}.json`), body);
  etags[pack.id] = etagOf(body);
  bytes += Buffer.byteLength(body);
}
const manifestBody = JSON.stringify({
  data: manifest,
  meta: { count: manifest.length, generatedAt, dataVersion, license, attribution },
});
writeFileSync(join(outDir, "manifest.json"), manifestBody);
// Strong ETags of the pack files, computed once here: the Worker answers a revalidation (304)
// from this small map without reading the pack, and streams the file untouched otherwise.
writeFileSync(join(outDir, "etags.json"), JSON.stringify(etags));
writeFileSync(join(outDir, "regions.json"), JSON.stringify(regions));

mkdirSync(dirname(stampFile), { recursive: true });
writeFileSync(stampFile, `${stamp} ${manifest.length}`);

const countryCount = new Set(manifest.map((e) => e.country)).size;
const files = readdirSync(join(outDir, "packs")).length;
console.log(
  `calendars: ${files} packs (${countryCount} countries, ${files - countryCount} subdivisions), years ${years.from}-${years.to}, ` +
    `${(bytes / 1024 / 1024).toFixed(2)} MiB of packs + ${(Buffer.byteLength(manifestBody) / 1024).toFixed(0)} KiB manifest -> static/calendars/`,
);
