/**
 * A client's name is its own text (open registration, or its metadata document), shown on the consent
 * page and the account page. Bidi controls would let it read as something else ("Agent" + RLO +
 * "exe.gnp" shows as "Agent png.exe"), and control characters have no business on a page: both go.
 * Line breaks and tabs become one space. Other scripts, emoji and their joiners stay.
 */

const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// Embeddings and overrides (LRE…RLO), isolates (LRI…PDI), the marks LRM, RLM and ALM.
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const CONTROL = /\p{Cc}/gu;

/** The name with bidi and control characters removed and spaces collapsed; "" when nothing is left. */
export function plainClientName(name: string): string {
  return name.replace(BREAKS, " ").replace(BIDI, "").replace(CONTROL, "").replace(/ {2,}/g, " ").trim();
}
