import * as chrono from "chrono-node/en";
import { closestNames, looseKeyOf } from "../lists/names";
import { adverbRule, endsRule, firstDay, isRuleWord, ruleOf } from "./quick-add-repeat";
import { rruleProblem } from "./rrule";
import { floatingDate, formatInZone, fromFloating, offsetAt } from "./wall-clock";

/** A list quick add may name with `#Name`: the page's lists. */
export interface QuickAddList {
  id: string;
  name: string;
}

/**
 * Quick add: one line such as "Call Bob tomorrow 3pm #Work @phone p1 every monday" read into a task.
 * - `#List` names an existing list, matched ignoring case, spaces, dashes and underscores; a list of
 *   several words matches when written with its spaces ("#Weekly shop"). A name no list has becomes
 *   `newList` (with the closest names) for the caller to confirm; it is never created here.
 * - `@label` adds a label; `p1`…`p4` set the priority the Todoist way (p1 = 4, urgent; p4 = 1).
 * - "every …", "daily", … set `repeat` (quick-add-repeat.ts); a date or time (chrono-node) sets `due`,
 *   wall-clock in `timeZone`: a day alone is an all-day `due`, a day with a time a date-time.
 * Each is read once (the first one); the rest, and every word none of them reads, stays in the title.
 * Pure: the clock and the zone come in, so a test can pin both.
 */

export interface QuickAddOptions {
  now: Date;
  timeZone: string;
  lists?: QuickAddList[];
}

export interface QuickAdd {
  title: string;
  due?: string;
  /** The id of the existing list `#Name` matched. */
  listId?: string;
  /** `#Name` matched no list: the caller asks before creating it. `closest`: existing names it may mean. */
  newList?: { name: string; closest: string[] };
  labels: string[];
  priority?: 1 | 2 | 3 | 4;
  repeat?: string;
  /** Phrases that looked like a rule but were not read ("every fortnight"); they stay in the title. */
  unparsed?: string[];
}

interface Word {
  text: string;
  used: boolean;
}

const MAX_LABELS = 20;
const MAX_LABEL = 60;

export function parseQuickAdd(text: string, options: QuickAddOptions): QuickAdd {
  const words: Word[] = text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ text: w, used: false }));
  const result: QuickAdd = { title: "", labels: [] };
  readTokens(words, result, options.lists ?? []);
  const when = readWhen(words, options);
  if (when.repeat) result.repeat = when.repeat;
  if (when.due) result.due = when.due;
  if (when.unparsed.length) result.unparsed = when.unparsed;
  result.title = words
    .filter((w) => !w.used)
    .map((w) => w.text)
    .join(" ");
  return result;
}

/**
 * Only a date or recurrence phrase, e.g. a Todoist CSV's DATE ("every monday", "Dec 24 3pm"): what
 * it reads, and `unparsed`, the words it could not read as one phrase (nothing is guessed for them).
 */
export function parseWhen(text: string, options: Omit<QuickAddOptions, "lists">) {
  const words: Word[] = text
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({ text: w, used: false }));
  const when = readWhen(words, options);
  const rest = words.filter((w) => !w.used && !/^(at|on|in|by|from)$/i.test(w.text)).map((w) => w.text);
  return { due: when.due, repeat: when.repeat, unparsed: rest.length ? [rest.join(" ")] : [] };
}

function readTokens(words: Word[], result: QuickAdd, lists: QuickAddList[]): void {
  const labelKeys = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.used) continue;
    const priority = /^p([1-4])$/i.exec(word.text);
    if (priority && !result.priority) {
      result.priority = (5 - Number(priority[1])) as 1 | 2 | 3 | 4;
      word.used = true;
    } else if (/^@[^@#\s]/.test(word.text)) {
      const label = word.text.slice(1).replace(/[.,;:!?]+$/, "");
      if (!label || [...label].length > MAX_LABEL || labelKeys.size >= MAX_LABELS) continue;
      word.used = true;
      if (labelKeys.has(label.toLowerCase())) continue;
      labelKeys.add(label.toLowerCase());
      result.labels.push(label);
    } else if (/^#[^#\s]/.test(word.text) && !/^#\d+$/.test(word.text) && !result.listId && !result.newList) {
      readList(words, i, result, lists);
    }
  }
}

/** `#Name`, or `#Weekly shop` (the longest run of words that is a list's name), or a new name. */
function readList(words: Word[], at: number, result: QuickAdd, lists: QuickAddList[]): void {
  const byKey = new Map(lists.map((l) => [looseKeyOf(l.name), l]));
  const first = words[at]!.text.slice(1).replace(/[.,;:!?]+$/, "");
  for (let n = Math.min(5, words.length - at); n >= 1; n--) {
    const run = words.slice(at, at + n);
    if (run.some((w) => w.used)) continue;
    const name = [first, ...run.slice(1).map((w) => w.text)].join(" ");
    const list = byKey.get(looseKeyOf(name)) ?? lists.find((l) => l.id === name);
    if (!list) continue;
    result.listId = list.id;
    for (const w of run) w.used = true;
    return;
  }
  if (!looseKeyOf(first)) return;
  words[at]!.used = true;
  result.newList = {
    name: first,
    closest: closestNames(
      first,
      lists.map((l) => l.name),
    ),
  };
}

function readWhen(words: Word[], { now, timeZone }: Omit<QuickAddOptions, "lists">) {
  const unparsed: string[] = [];
  const repeat = readRepeat(words, unparsed);
  const today = floatingDate(now.getTime() + offsetAt(now.getTime(), timeZone));
  let due = readDate(words, now, timeZone);
  if (repeat && !due?.dayCertain) {
    // "every monday 9am": the rule's first day, at the time given; a time already past today starts tomorrow.
    let day = firstDay(repeat, today);
    if (due?.time && Date.parse(zoned(day, due.time, timeZone)) <= now.getTime())
      day = firstDay(repeat, floatingDate(Date.parse(`${today}T00:00:00Z`) + 86_400_000));
    due = { day, time: due?.time, dayCertain: true };
  }
  const value = due && (due.time ? zoned(due.day, due.time, timeZone) : due.day);
  return { repeat, due: value, unparsed };
}

/** "every …" (the longest run of rule words that reads as a rule) or an adverb ("weekly"). */
function readRepeat(words: Word[], unparsed: string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.used) continue;
    const adverb = adverbRule(word.text.replace(/[.,;:!?]+$/, ""));
    if (adverb) {
      word.used = true;
      return adverb;
    }
    if (!/^(every|each)$/i.test(word.text)) continue;
    let end = i + 1;
    while (end < words.length && end - i <= 8 && !words[end]!.used && isRuleWord(words[end]!.text)) end++;
    for (let n = end; n > i + 1; n--) {
      if (!endsRule(words[n - 1]!.text)) continue;
      const found = ruleOf(
        words
          .slice(i + 1, n)
          .map((w) => w.text)
          .join(" "),
      );
      if (!found || rruleProblem(found)) continue;
      for (const w of words.slice(i, n)) w.used = true;
      return found;
    }
    unparsed.push(
      words
        .slice(i, Math.max(end, i + 2))
        .map((w) => w.text)
        .join(" "),
    );
    return undefined;
  }
  return undefined;
}

/**
 * What chrono reads as a date but a title means otherwise: a month alone ("Read March book", "May I
 * call"), "sun" ("Sun tan lotion") and "now" ("Fix it now"). "March 3", "on sunday" and "sat" still count.
 */
const NOT_A_DATE =
  /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|sun|now)$/i;

interface When {
  day: string;
  time?: string;
  dayCertain: boolean;
}

/** The first date or time chrono finds among the unread words, in the zone's wall clock. */
function readDate(words: Word[], now: Date, timeZone: string): When | undefined {
  const open = words.filter((w) => !w.used);
  const text = open.map((w) => w.text).join(" ");
  const timezone = Math.round(offsetAt(now.getTime(), timeZone) / 60_000);
  const found = chrono.casual
    .parse(text, { instant: now, timezone }, { forwardDate: true })
    .find((r) => !NOT_A_DATE.test(r.text));
  if (!found) return undefined;
  // Mark the words the phrase covers (a word it only touches, "3pm," included).
  let offset = 0;
  for (const w of open) {
    const start = offset;
    offset += w.text.length + 1;
    if (start < found.index + found.text.length && offset - 1 > found.index) w.used = true;
  }
  const c = found.start;
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = `${String(c.get("year")).padStart(4, "0")}-${pad(c.get("month")!)}-${pad(c.get("day")!)}`;
  const dayCertain = c.isCertain("day") || c.isCertain("weekday");
  return {
    day,
    time: c.isCertain("hour") ? `${pad(c.get("hour")!)}:${pad(c.get("minute") ?? 0)}` : undefined,
    dayCertain,
  };
}

/** A wall-clock day and time in `timeZone` as RFC 3339 with that zone's offset then. */
const zoned = (day: string, time: string, timeZone: string) =>
  formatInZone(fromFloating(Date.parse(`${day}T${time}:00Z`), timeZone), timeZone);
