import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { snippets } from "../../web/snippets";

/** README.md's first screen against the code: what it tells a newcomer to run and paste exists and matches. */
const readme = new TextDecoder().decode((env as unknown as { README_MD_BYTES: ArrayBuffer }).README_MD_BYTES);
const LOCAL = "http://localhost:8787";

describe("README", () => {
  it("shows the MCP client entry the account page gives, byte for byte as JSON", () => {
    const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((b) => b.includes("mcpServers"));
    expect(block).toBeDefined();
    const page = snippets({ mcp: `${LOCAL}/mcp`, rest: `${LOCAL}/api/v1` }, "todo_live_…")["snippet-mcp-json"]!;
    expect(JSON.parse(block!)).toEqual(JSON.parse(page));
  });

  it("names only npm scripts that package.json has", () => {
    const named = new Set([...readme.matchAll(/\bnpm run ([a-z:-]+)/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(3);
    expect([...named].filter((script) => !(script in packageJson.scripts))).toEqual([]);
  });

  it("puts the two commands, a key, a REST call, MCP and the deploy on its first screen", () => {
    const firstScreen = readme.slice(0, readme.indexOf("## Where things are"));
    for (const words of [
      "npm install && npm run dev",
      "npm test",
      "npm run demo-key",
      "/api/v1/tasks",
      '"type": "http"',
      "OAuth",
      "npm run deploy",
    ])
      expect(firstScreen, words).toContain(words);
    expect(firstScreen.split("\n").length).toBeLessThan(90);
  });
});
