import { describe, expect, it } from "vitest";
import { ruleLabel } from "../../web/tasks/rule-label";

/** The tasks page's words for a rule; what they do not cover is shown as written, never guessed. */
describe("ruleLabel", () => {
  it.each([
    ["FREQ=WEEKLY;BYDAY=MO", "Every Monday"],
    ["FREQ=WEEKLY;BYDAY=MO,WE,FR", "Every Monday, Wednesday and Friday"],
    ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday"],
    ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "Every 2 weeks on Tuesday"],
    ["FREQ=WEEKLY;INTERVAL=2", "Every 2 weeks"],
    ["FREQ=DAILY;INTERVAL=3", "Every 3 days"],
    ["FREQ=MONTHLY;BYMONTHDAY=1", "Every month on day 1"],
    ["FREQ=MONTHLY;BYMONTHDAY=-1", "Every month on the last day"],
    ["FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24", "Every year on Dec 24"],
  ])("%s is “%s”", (rule, words) => expect(ruleLabel(rule)).toBe(words));

  it.each([
    "FREQ=MONTHLY;BYDAY=2MO",
    "FREQ=DAILY;COUNT=3",
    "FREQ=WEEKLY;UNTIL=20300101",
    "FREQ=YEARLY;BYMONTH=3;BYDAY=MO",
  ])("%s is shown as written", (rule) => expect(ruleLabel(rule)).toBe(`Repeats: ${rule}`));
});
