import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers";

/** The repository files' bytes, read from disk by Miniflare (`dataBlobBindings` in vitest.config.ts). */
const onDisk = env as unknown as {
  SKILL_MD_BYTES: ArrayBuffer;
  REFERENCE_MD_BYTES: ArrayBuffer;
  LLMS_TXT_BYTES: ArrayBuffer;
};

describe("root entry points", () => {
  it.each([
    ["/SKILL.md", "text/markdown; charset=utf-8", onDisk.SKILL_MD_BYTES],
    ["/references/REFERENCE.md", "text/markdown; charset=utf-8", onDisk.REFERENCE_MD_BYTES],
    ["/llms.txt", "text/plain; charset=utf-8", onDisk.LLMS_TXT_BYTES],
  ])("serves %s byte-identical to the repository file as %s", async (path, type, bytes) => {
    const res = await call(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(bytes));
  });

  it.each(["/SKILL.md", "/references/REFERENCE.md", "/llms.txt"])(
    "needs no credentials and lets any origin read %s",
    async (path) => {
      const res = await call(path, { headers: { Origin: "https://agent.example" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    },
  );
});
