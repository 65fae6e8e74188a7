// What SKILL.md is generated from, as plain data: the OpenAPI document's operations in a flat list, the
// hand-written sections of docs/skill/examples.md, and the checks that every tool and operation has one.
// Pure functions, no I/O: build-skill.mjs reads the files, test/scripts/build-skill.test.mjs feeds its own.

const METHODS = ["get", "put", "post", "delete", "patch"];

/** Every operation with its method and full path: `/api/v1/tasks`, or the feed's own root (`servers`). */
export function operationsOf(document) {
  const base = new URL(document.servers[0].url);
  const operations = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const server = operation.servers ? new URL(operation.servers[0].url, `${base.href}/`) : base;
      const prefix = server.pathname.replace(/\/$/, "");
      operations.set(operation.operationId, {
        ...operation,
        id: operation.operationId,
        method: method.toUpperCase(),
        path: `${prefix}${path}`,
      });
    }
  }
  return operations;
}

/**
 * examples.md's `## ` sections in file order: "## `name`" is a tool's or an operation's hand-written text,
 * any other heading the lead of a group ("## MCP tools"). What comes before the first heading is a note
 * for maintainers and is not copied.
 */
export function parseExamples(text) {
  const entries = new Map();
  const leads = new Map();
  const problems = [];
  for (const section of text.split(/^## /m).slice(1)) {
    const end = section.indexOf("\n");
    const heading = (end < 0 ? section : section.slice(0, end)).trim();
    const body = end < 0 ? "" : section.slice(end + 1).trim();
    const name = /^`([^`]+)`$/.exec(heading)?.[1];
    const into = name ? entries : leads;
    if (into.has(name ?? heading)) problems.push(`two sections named ${heading}`);
    into.set(name ?? heading, body);
  }
  return { entries, leads, problems };
}

/**
 * What the generator refuses: a tool or operation without its section or example, a section naming
 * neither, or a missing group lead. The same rules as test/entry-points/consistency.test.ts, said here
 * first so that `npm run skill` names the fix.
 */
export function sourceProblems({ entries, leads, problems }, tools, operations, groups) {
  const found = [...problems];
  for (const group of groups) if (!leads.has(group)) found.push(`no "## ${group}" section`);
  for (const tool of tools) {
    const body = entries.get(tool.name);
    if (body === undefined) found.push(`no section for the MCP tool ${tool.name}`);
    else if (!new RegExp(`\`\`\`json\\n[\\s\\S]*"name": "${tool.name}"`).test(body))
      found.push(`the section of ${tool.name} has no \`\`\`json example calling it`);
  }
  for (const id of operations.keys()) {
    const body = entries.get(id);
    if (body === undefined) found.push(`no section for the operation ${id}`);
    else if (!/```sh\ncurl /.test(body)) found.push(`the section of ${id} has no \`\`\`sh curl example`);
  }
  const known = new Set([...tools.map((t) => t.name), ...operations.keys()]);
  for (const name of entries.keys()) if (!known.has(name)) found.push(`a section names ${name}: no tool or operation`);
  return found.map((problem) => `docs/skill/examples.md: ${problem}`);
}

/** `rate_limited`, `max_required`…: the codes a response's description names, as the document writes them. */
export const codesOf = (response) => [...(response.description ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);

/**
 * The error codes the document's operations declare, in the order of the error type's own list; a name
 * that is no code comes last, so that rendering it fails instead of leaving it out.
 */
export function documentedCodes(operations, allCodes) {
  const named = new Set();
  for (const operation of operations.values()) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) >= 400) for (const code of codesOf(response)) named.add(code);
    }
  }
  return [...allCodes.filter((code) => named.has(code)), ...[...named].filter((code) => !allCodes.includes(code))];
}
