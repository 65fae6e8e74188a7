import { describe, expect, it } from "vitest";
import { callWith } from "../hardening/support";
import { BASE, call, maxUser } from "../helpers";
import { vapidPair } from "../support/push-device";
import { servedSkill } from "./served-skill";

/**
 * Every curl example of the skill (SKILL.md, then the reference it links, where docs/skill/examples.md puts
 * them), run as written, in the order the files give them, against a new Max account (issue 26:
 * `/lists/groceries` was a 404 for a list created without that id). Each is parsed from the file the Worker
 * serves, sent to the Worker, and must succeed. The only substitutions
 * are the ones a reader makes: the origin, and the shell variables SKILL.md says to set, each from the
 * answer it names. A literal id in a URL is sent as it is.
 */

const DOC_ORIGIN = "https://todo.example.com";

/** The shell variables SKILL.md uses, and the answer each comes from ("`$TASK_ID` … from `createTask`"). */
const CAPTURES: { variable: string; after: RegExp; value: (res: Response, body: any) => string | null }[] = [
  { variable: "TASK_ID", after: /^POST \/api\/v1\/tasks$/, value: (_, body) => body.id },
  { variable: "ETAG", after: /^GET \/api\/v1\/tasks\/[^/]+$/, value: (res) => res.headers.get("etag") },
  { variable: "LIST_ID", after: /^POST \/api\/v1\/lists$/, value: (_, body) => body.id },
  { variable: "LABEL_ID", after: /^POST \/api\/v1\/labels$/, value: (_, body) => body.id },
  { variable: "WEBHOOK_ID", after: /^POST \/api\/v1\/webhooks$/, value: (_, body) => body.id },
  { variable: "PUSH_SUBSCRIPTION_ID", after: /^POST \/api\/v1\/push-subscriptions$/, value: (_, body) => body.id },
];

/** The `curl …` commands of the ```sh blocks, with backslash-newline continuations joined. */
function curlCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, "").split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("curl "));
}

/** Shell words: '…' is literal, "…" and bare words expand $NAME; an unset variable is an error. */
function shellWords(line: string, variables: Record<string, string>): string[] {
  const expand = (text: string) =>
    text.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, name: string) => {
      const value = variables[name];
      if (value === undefined) throw new Error(`$${name} is not set before: ${line}`);
      return value;
    });
  const words: string[] = [];
  for (const [, single, double, bare] of line.matchAll(/\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+))/g)) {
    words.push(single ?? expand(double ?? bare ?? ""));
  }
  return words;
}

interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The options SKILL.md uses; any other one fails the test rather than being ignored. */
function parseCurl(words: string[]): CurlRequest {
  const request: CurlRequest = { method: "", url: "", headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-X") request.method = words[++i]!;
    else if (word === "-H") {
      const header = words[++i]!;
      request.headers[header.slice(0, header.indexOf(":"))] = header.slice(header.indexOf(":") + 1).trim();
    } else if (word === "-d") request.body = words[++i]!;
    else if (word === "-i") continue;
    else if (!word.startsWith("-") && !request.url) request.url = word;
    else throw new Error(`curl option not understood by this test: ${word}`);
  }
  request.method ||= request.body === undefined ? "GET" : "POST";
  return request;
}

describe("the skill's curl examples", () => {
  it("parses the shell as a reader's shell would", () => {
    expect(shellWords(`curl -H "A: $X" -d '{"a": "$X"}' https://h/$X`, { X: "1" })).toEqual([
      "curl",
      "-H",
      "A: 1",
      "-d",
      '{"a": "$X"}',
      "https://h/1",
    ]);
    expect(() => shellWords("curl https://h/$UNSET", {})).toThrow("$UNSET is not set");
    expect(() => parseCurl(["curl", "--data-binary", "x"])).toThrow("not understood");
  });

  it("all run in order against a new account and succeed", async () => {
    const user = await maxUser("skill-examples");
    const { skill, reference } = await servedSkill();
    const commands = [...curlCommands(skill), ...curlCommands(reference)];
    expect(commands.length).toBeGreaterThanOrEqual(16);
    // The feed's token comes from the account page, as the key does: the reader copies both from there.
    const feed = await (await call("/account/feed", { token: user.session, body: {} })).json<{ url: string }>();
    const feedToken = /\/feeds\/([^/]+)\.ics$/.exec(feed.url)![1]!;
    const variables: Record<string, string> = { TODO_API_KEY: user.key, TODO_FEED_TOKEN: feedToken };
    const ran: string[] = [];
    // A deployment as docs/deploy.md sets it up, with its VAPID keys (the pool's env has none: push is off there).
    const vapid = (await vapidPair()) as Partial<Env>;
    for (const command of commands) {
      const { method, url, headers, body } = parseCurl(shellWords(command, variables));
      expect(url.startsWith(DOC_ORIGIN), command).toBe(true);
      const target = new URL(url.slice(DOC_ORIGIN.length), BASE);
      const path = `${target.pathname}${target.search}`;
      const res = path.startsWith("/api/v1/push")
        ? await callWith(vapid, path, { method, headers, body })
        : await call(path, { method, headers, body });
      const text = await res.text();
      if (headers.Upgrade === "websocket") {
        // The stream (openStream) succeeds by switching protocols: 101 and a socket, closed again here.
        expect(res.status, `${command}\n→ ${res.status} ${text}`).toBe(101);
        res.webSocket!.accept();
        res.webSocket!.close(1000);
        ran.push(`101 GET ${target.pathname}`);
        continue;
      }
      expect(res.status, `${command}\n→ ${res.status} ${text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${command}\n→ ${res.status} ${text}`).toBeLessThan(300);
      const operation = `${method} ${target.pathname.replace(/\/$/, "")}`;
      for (const capture of CAPTURES.filter((c) => c.after.test(operation))) {
        const value = capture.value(
          res,
          text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : {},
        );
        expect(value, `${capture.variable} from ${command}`).toBeTruthy();
        variables[capture.variable] = value!;
      }
      ran.push(`${res.status} ${operation}`);
    }
    // Every variable SKILL.md names was set from an answer and used.
    expect(Object.keys(variables).sort()).toEqual([
      "ETAG",
      "LABEL_ID",
      "LIST_ID",
      "PUSH_SUBSCRIPTION_ID",
      "TASK_ID",
      "TODO_API_KEY",
      "TODO_FEED_TOKEN",
      "WEBHOOK_ID",
    ]);
    console.log(`SKILL.md and its reference: ${ran.length} curl examples\n${ran.join("\n")}`);
  });
});
