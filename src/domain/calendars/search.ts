import type { CalendarManifestEntry } from "./schemas";

/**
 * Finding a pack by what people call a place. The catalogue names countries in English but many
 * regions in their own language (date-holidays has "Bayern", not "Bavaria"), and people and models
 * say "USA" or "UK". A query matches when each of its words is found in the pack's id, country
 * code, name (a region's ends with its country's), the country's English name from the runtime's
 * Intl.DisplayNames, or one of the English names and common short forms below.
 */
const ALIASES: Record<string, string[]> = {
  us: ["USA", "America", "United States"],
  gb: ["UK", "Britain", "Great Britain", "United Kingdom"],
  nl: ["Holland"],
  ae: ["UAE", "Emirates"],
  kr: ["Korea"],
  "de-bw": ["Baden-Wurttemberg"],
  "de-by": ["Bavaria"],
  "de-he": ["Hesse"],
  "de-mv": ["Mecklenburg-Western Pomerania"],
  "de-ni": ["Lower Saxony"],
  "de-nw": ["North Rhine-Westphalia"],
  "de-rp": ["Rhineland-Palatinate"],
  "de-sn": ["Saxony"],
  "de-st": ["Saxony-Anhalt"],
  "de-th": ["Thuringia"],
  "be-bru": ["Brussels"],
  "be-de": ["German-speaking Community"],
  "be-vlg": ["Flanders", "Flemish Community"],
  "be-wal": ["Wallonia", "French Community"],
  "es-an": ["Andalusia"],
  "es-ar": ["Aragon"],
  "es-md": ["Madrid"],
  "es-nc": ["Navarre"],
  "es-vc": ["Valencia"],
  "fr-gf": ["French Guiana"],
  "fr-re": ["Reunion"],
  "it-32": ["South Tyrol"],
};

/** The English names and short forms of a pack (`de-by`: Bavaria), none for most. */
export const aliasesOf = (id: string): readonly string[] => ALIASES[id] ?? [];

/** Case- and accent-insensitive form ("Baden-Württemberg" ~ "wurttemberg"). */
export const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

const englishRegions = new Intl.DisplayNames(["en"], { type: "region" });
const englishCountry = (code: string) => {
  try {
    return englishRegions.of(code) ?? "";
  } catch {
    return "";
  }
};

/** What a pack can be found by, folded once per entry. */
const searchable = new WeakMap<CalendarManifestEntry, { codes: string[]; text: string }>();

function searchTextOf(entry: CalendarManifestEntry) {
  let found = searchable.get(entry);
  if (!found) {
    const country = entry.country.toLowerCase();
    const names = [
      // A region pack's name ends with its country's: "Bayern (Germany)".
      entry.name,
      englishCountry(entry.country),
      ...(ALIASES[entry.id] ?? []),
      ...(ALIASES[country] ?? []),
    ];
    found = { codes: [entry.id, country, ...(ALIASES[country] ?? []).map(fold)], text: fold(names.join(" | ")) };
    searchable.set(entry, found);
  }
  return found;
}

/**
 * The packs a free-text query names. Words of two letters are codes (`de`, `us`, `uk`) and must
 * match a code exactly; longer words match inside names.
 */
export function searchPacks(entries: CalendarManifestEntry[], query: string): CalendarManifestEntry[] {
  const words = fold(query)
    .split(/[\s,;/()]+/)
    .filter(Boolean);
  if (!words.length) return entries;
  return entries.filter((entry) => {
    const { codes, text } = searchTextOf(entry);
    return words.every((word) => codes.includes(word) || (word.length > 2 && text.includes(word)));
  });
}
