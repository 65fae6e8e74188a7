import * as zod from "zod";
import { describe, expect, it } from "vitest";
import * as shim from "../../src/bundle/zod";

// The Worker bundle uses src/bundle/zod.ts in place of "zod" (wrangler.toml [alias]); tests import zod
// itself. This holds the two to the same surface, so a zod upgrade cannot silently drop an export.
describe("the bundle's zod (without locales)", () => {
  const real: Record<string, unknown> = { ...zod };
  const bundled: Record<string, unknown> = { ...shim };
  const exceptSelf = (names: string[]) => names.filter((name) => name !== "z" && name !== "default").sort();

  it("exports every name zod exports, each the same value except the namespaces that hold locales", () => {
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(real).sort());
    for (const name of Object.keys(real)) {
      if (["locales", "core", "z", "default"].includes(name)) continue;
      expect(bundled[name], name).toBe(real[name]);
    }
    expect(Object.keys(shim.core).sort()).toEqual(Object.keys(zod.core).sort());
    expect(exceptSelf(Object.keys(shim.z))).toEqual(exceptSelf(Object.keys(zod.z)));
    expect(shim.default).toBe(shim.z);
    expect(shim.z.object).toBe(zod.z.object);
  });

  it("keeps English, the default locale, and its messages", () => {
    expect(Object.keys(shim.locales)).toEqual(["en"]);
    expect(Object.keys(shim.core.locales)).toEqual(["en"]);
    expect(shim.locales.en).toBe(zod.locales.en);
    const result = shim.z.object({ title: shim.z.string() }).safeParse({ title: 1 });
    expect(result.error?.issues[0]?.message).toBe("Invalid input: expected string, received number");
  });
});
