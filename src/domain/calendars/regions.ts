import { AppError } from "../errors";
import { getPack, getRegions, listPacks } from "./catalogue";
import { aliasesOf, fold } from "./search";
import type { CalendarPack } from "./schemas";

/**
 * Which pack answers for a place: a pack id, or a country code with an optional region (code or
 * name). Regions whose holidays equal their country's have no pack of their own
 * (scripts/build-calendars.mjs), so a region the data knows falls back to its country's pack and says
 * so. A region the data does not know is refused with the closest names: answering with the country's
 * holidays would silently drop the regional ones of a misspelt "Bavarria". Only a country whose data
 * has no regions at all takes any region: every place there observes the same holidays.
 */
export interface Place {
  pack?: string;
  country?: string;
  region?: string;
}

const invalid = (path: string, message: string) =>
  new AppError("validation_failed", "Invalid arguments.", [{ path, message }]);

interface Region {
  code: string;
  /** What the region is called: its name in the data, then its English names. */
  names: string[];
}

const regionsOf = async (assets: Fetcher, country: string): Promise<Region[]> =>
  ((await getRegions(assets))[country] ?? []).map(([code, name]) => ({
    code,
    names: [name, ...aliasesOf(`${country}-${code}`.toLowerCase())],
  }));

export async function resolvePlace(assets: Fetcher, place: Place): Promise<{ pack: CalendarPack; note?: string }> {
  if (place.pack) return { pack: await getPack(assets, place.pack) };
  if (!place.country) throw invalid("pack", "give `pack` (such as de-by) or `country` (such as DE)");
  const country = place.country.toUpperCase();
  const wanted = place.region?.trim();
  if (!wanted) return { pack: await getPack(assets, country) };

  const regions = await regionsOf(assets, country);
  const key = fold(wanted);
  const named = regions.find(
    (r) => [r.code, `${country}-${r.code}`].some((c) => fold(c) === key) || r.names.some((n) => fold(n) === key),
  );
  if (named) {
    const own = (await listPacks(assets, { country })).find((p) => p.region === named.code);
    if (own) return { pack: await getPack(assets, own.id) };
    return {
      pack: await getPack(assets, country),
      note: `${named.names[0]} (${country}-${named.code}) has no holidays of its own in the data: these are ${country}'s, which it observes.`,
    };
  }
  // Words found in a region pack's names ("bavaria germany", "Moselle").
  const found = (await listPacks(assets, { country, query: wanted })).filter((p) => p.region);
  if (found.length === 1) return { pack: await getPack(assets, found[0]!.id) };
  if (found.length > 1) {
    throw invalid(
      "region",
      `"${wanted}" matches several regions: ${found.map((p) => `${p.region} (${p.name})`).join(", ")}`,
    );
  }
  if (!regions.length) {
    return {
      pack: await getPack(assets, country),
      note: `The data has no regional holidays for ${country}: these are the country's, which every region observes.`,
    };
  }
  throw invalid("region", unknownRegion(wanted, country, regions));
}

/** The refusal of a region the data does not know: the closest names, or where to find them. */
function unknownRegion(wanted: string, country: string, regions: Region[]): string {
  const key = fold(wanted);
  // Short inputs are codes: one letter off is another code, not a typo worth suggesting.
  const tolerance = key.length < 4 ? 0 : Math.max(1, Math.floor(key.length / 3));
  const close = regions
    .map((r) => {
      const [best] = r.names
        .map((name) => ({ name, distance: editDistance(key, fold(name)) }))
        .sort((a, b) => a.distance - b.distance);
      return { label: `${best!.name} (${country}-${r.code})`, distance: best!.distance };
    })
    .filter((r) => r.distance <= tolerance)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map((r) => r.label);
  const national = `Leave out \`region\` for ${country}'s national holidays.`;
  if (close.length) {
    const listed = close.length > 1 ? `${close.slice(0, -1).join(", ")} or ${close.at(-1)}` : close[0];
    return `"${wanted}" is not a region of ${country}. Did you mean ${listed}? ${national}`;
  }
  const known =
    regions.length <= 20
      ? `Its regions: ${regions.map((r) => `${r.code} (${r.names[0]})`).join(", ")}.`
      : `list_calendar_packs with \`country: "${country}"\` lists its regions.`;
  return `"${wanted}" is not a region of ${country} in the data. ${known} ${national}`;
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: optimal string alignment. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
