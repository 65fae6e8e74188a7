import { expect } from "vitest";
import { BASE, call } from "../helpers";

export interface ServedSkill {
  /** /SKILL.md as the Worker serves it. */
  skill: string;
  /** The reference SKILL.md links, fetched as a reader follows the link. */
  reference: string;
  /** Its path on the service, resolved from SKILL.md's relative link. */
  referencePath: string;
}

/**
 * SKILL.md and the reference file it links (references/REFERENCE.md). The link is relative, so it resolves
 * the same next to /SKILL.md on the service and next to SKILL.md in the repository; this follows it as an
 * agent that fetched /SKILL.md would.
 */
export async function servedSkill(): Promise<ServedSkill> {
  const skill = await (await call("/SKILL.md")).text();
  const link = /\]\((references\/[^)#\s]+\.md)\)/.exec(skill)?.[1];
  expect(link, "SKILL.md links its reference file").toBeDefined();
  const referencePath = new URL(link!, `${BASE}/SKILL.md`).pathname;
  const res = await call(referencePath);
  expect(res.status, referencePath).toBe(200);
  return { skill, reference: await res.text(), referencePath };
}
