import { AppError } from "../errors";
import { searchPacks } from "./search";
import type { CalendarManifest, CalendarManifestEntry, CalendarPack } from "./schemas";

/**
 * The calendar catalogue lives in static assets written by scripts/build-calendars.mjs
 * (static/calendars/manifest.json and static/calendars/packs/<id>.json). Nothing here
 * touches D1, so the public calendar routes keep working when the database does not.
 */
export const MANIFEST_PATH = "/calendars/manifest.json";
export const packPath = (id: string) => `/calendars/packs/${id}.json`;
/** `{ [packId]: strong ETag of the pack file }`, written by the generator. */
export const ETAGS_PATH = "/calendars/etags.json";
/** `{ [country]: [[code, name], …] }`: every subdivision the data knows, with or without a pack. */
export const REGIONS_PATH = "/calendars/regions.json";

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

/**
 * Assets are immutable for a deployment, so each catalogue file is parsed once per binding
 * (per isolate); a failed read is forgotten so the next request tries again.
 */
function cachedCatalogueFile<T>(path: string) {
  const cache = new WeakMap<Fetcher, Promise<T>>();
  return (assets: Fetcher): Promise<T> => {
    let file = cache.get(assets);
    if (!file) {
      file = readJsonAsset<T>(assets, path).then((found) => {
        if (!found)
          throw new AppError("unavailable", "The calendar catalogue is not available right now.", undefined, 60);
        return found;
      });
      file.catch(() => cache.delete(assets));
      cache.set(assets, file);
    }
    return file;
  };
}

export const getManifest = cachedCatalogueFile<CalendarManifest>(MANIFEST_PATH);
const getPackEtags = cachedCatalogueFile<Record<string, string>>(ETAGS_PATH);
export const getRegions = cachedCatalogueFile<Record<string, [code: string, name: string][]>>(REGIONS_PATH);

/**
 * Packs of the catalogue, in manifest order (by id), narrowed by country code and/or a search by
 * name, code or English alias (search.ts).
 */
export async function listPacks(
  assets: Fetcher,
  filter: { country?: string; query?: string },
): Promise<CalendarManifestEntry[]> {
  const { data } = await getManifest(assets);
  const country = filter.country?.trim().toUpperCase();
  const inCountry = country ? data.filter((entry) => entry.country === country) : data;
  return filter.query?.trim() ? searchPacks(inCountry, filter.query) : inCountry;
}

// Where the packs are listed is each surface's to say (transport/problem.ts, mcp/errors.ts).
const packNotFound = (id: string) => new AppError("pack_not_found", `No calendar pack with id "${id}".`);

/** Resolves a pack id (case-insensitive) to its canonical id and the strong ETag of its stored JSON. */
export async function findPack(assets: Fetcher, id: string): Promise<{ id: string; etag: string }> {
  const normalized = id.toLowerCase();
  const etag = PACK_ID.test(normalized) ? (await getPackEtags(assets))[normalized] : undefined;
  if (!etag) throw packNotFound(id);
  return { id: normalized, etag };
}

// Pack files are immutable for a deployment, like the catalogue: each is read from ASSETS once per
// isolate and then served from memory, which saves a subrequest per download. All 532 packs are
// about 4.6 MiB; the bound keeps a larger catalogue from growing the isolate past it.
const PACK_MEMORY_BYTES = 8 * 1024 * 1024;
const packBodies = new WeakMap<Fetcher, { bytes: number; bodies: Map<string, Uint8Array<ArrayBuffer>> }>();

/** The stored JSON of a pack, byte for byte, as sent to a client. */
export async function readPackBody(assets: Fetcher, id: string): Promise<Uint8Array<ArrayBuffer>> {
  let memory = packBodies.get(assets);
  if (!memory) {
    memory = { bytes: 0, bodies: new Map() };
    packBodies.set(assets, memory);
  }
  const cached = memory.bodies.get(id);
  if (cached) return cached;
  const response = await assets.fetch(new Request(`${ASSET_ORIGIN}${packPath(id)}`));
  // As in readJsonAsset: a missing file may come back as 404 or as a 200 HTML fallback.
  if (!response.ok || !(response.headers.get("content-type") ?? "").includes("json")) {
    await response.body?.cancel();
    throw packNotFound(id);
  }
  const body = new Uint8Array(await response.arrayBuffer());
  memory.bodies.set(id, body);
  memory.bytes += body.byteLength;
  // Oldest first (Map order) until the bound holds again.
  for (const [oldId, old] of memory.bodies) {
    if (memory.bytes <= PACK_MEMORY_BYTES) break;
    memory.bodies.delete(oldId);
    memory.bytes -= old.byteLength;
  }
  return body;
}

/** One pack with its events, parsed from the bytes readPackBody keeps. Ids are matched case-insensitively (`DE-BY` is `de-by`). */
export async function getPack(assets: Fetcher, id: string): Promise<CalendarPack> {
  const normalized = id.toLowerCase();
  if (!PACK_ID.test(normalized)) throw packNotFound(id);
  return JSON.parse(new TextDecoder().decode(await readPackBody(assets, normalized))) as CalendarPack;
}
