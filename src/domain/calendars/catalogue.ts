import { AppError } from "../errors";
import type { CalendarManifest, CalendarManifestEntry, CalendarPack } from "./schemas";

/**
 * The calendar catalogue lives in static assets written by scripts/build-calendars.mjs
 * (static/calendars/manifest.json and static/calendars/packs/<id>.json). Nothing here
 * touches D1, so the public calendar routes keep working when the database does not.
 */
export const MANIFEST_PATH = "/calendars/manifest.json";
export const packPath = (id: string) => `/calendars/packs/${id}.json`;

// The host is ignored by the ASSETS binding; only the path selects the file.
const ASSET_ORIGIN = "https://assets.invalid";
const PACK_ID = /^[a-z]{2}(-[a-z0-9]+)?$/;

/**
 * A missing file can come back as 404 or, with SPA fallback, as 200 text/html:
 * only a JSON answer counts as found.
 */
async function readJsonAsset<T>(assets: Fetcher, path: string): Promise<T | undefined> {
  const response = await assets.fetch(new Request(`${ASSET_ORIGIN}${path}`));
  if (!response.ok || !(response.headers.get("content-type") ?? "").includes("json")) {
    await response.body?.cancel();
    return undefined;
  }
  return (await response.json()) as T;
}

// Assets are immutable for a deployment, so one parsed manifest per binding is enough.
const manifests = new WeakMap<Fetcher, Promise<CalendarManifest>>();

export function getManifest(assets: Fetcher): Promise<CalendarManifest> {
  let manifest = manifests.get(assets);
  if (!manifest) {
    manifest = readJsonAsset<CalendarManifest>(assets, MANIFEST_PATH).then((found) => {
      if (!found) throw new AppError("unavailable", "The calendar catalogue is not available right now.", undefined, 60);
      return found;
    });
    manifest.catch(() => manifests.delete(assets));
    manifests.set(assets, manifest);
  }
  return manifest;
}

/** Case- and accent-insensitive form for name search ("Baden-Württemberg" ~ "wurttemberg"). */
const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

/** Packs of the catalogue, in manifest order (by id), narrowed by country code and/or a name search. */
export async function listPacks(
  assets: Fetcher,
  filter: { country?: string; query?: string },
): Promise<CalendarManifestEntry[]> {
  const { data } = await getManifest(assets);
  const country = filter.country?.trim().toUpperCase();
  const query = filter.query?.trim() ? fold(filter.query.trim()) : undefined;
  return data.filter(
    (entry) =>
      (!country || entry.country === country) &&
      (!query || fold(entry.name).includes(query) || entry.id.includes(query) || entry.country.toLowerCase() === query),
  );
}

/** One pack with its events. Ids are matched case-insensitively (`DE-BY` is `de-by`). */
export async function getPack(assets: Fetcher, id: string): Promise<CalendarPack> {
  const normalized = id.toLowerCase();
  const pack = PACK_ID.test(normalized) ? await readJsonAsset<CalendarPack>(assets, packPath(normalized)) : undefined;
  if (!pack) throw new AppError("pack_not_found", `No calendar pack with id "${id}". GET /api/v1/calendars lists them.`);
  return pack;
}
