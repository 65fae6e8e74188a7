// references/REFERENCE.md: every MCP tool and REST operation in detail, the objects they answer with and the
// webhook events, from the tool descriptors and the OpenAPI document, each followed by its hand-written
// section of docs/skill/examples.md. Pure: build-skill.mjs hands it the data.
import { codesOf } from "./skill-sources.mjs";
import { cell, fieldList, fieldsOf, fieldTable, oneLine, refName, typeText } from "./skill-schema-text.mjs";

export const TOOLS_GROUP = "MCP tools";
export const OPERATIONS_GROUP = "REST operations";

/** What a call does to the account, from the tool's hints or the operation's method. */
export const kindOfTool = ({ readOnlyHint, destructiveHint }) =>
  readOnlyHint ? "read-only" : destructiveHint ? "deletes" : "writes";
export const kindOfOperation = ({ method }) =>
  method === "GET" ? "read-only" : method === "DELETE" ? "deletes" : "writes";

const KIND_TEXT = {
  "read-only": "Read-only.",
  writes: "Changes data: confirm with the user first.",
  deletes: "Deletes for good: confirm with the user first, naming what goes.",
};

const bearer = (operation) => (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
const needsMax = (operation) =>
  Object.values(operation.responses ?? {}).some((r) => codesOf(r).includes("max_required"));

/** "API key, Max" / "API key" / "none", as SKILL.md's table says it. */
export const credentialsOf = (operation) =>
  bearer(operation) ? (needsMax(operation) ? "API key, Max" : "API key") : "none";

const CREDENTIALS_TEXT = {
  "API key, Max": "Send `Authorization: Bearer <API_KEY>`; the account needs an active Max membership.",
  "API key": "Send `Authorization: Bearer <API_KEY>`.",
  none: "No credentials.",
};

const resolverOf = (definitions, prefix) => (ref) => {
  const schema = definitions?.[refName(ref)];
  if (!schema) throw new Error(`${ref}: not found under ${prefix}`);
  return schema;
};

// Every function below returns Markdown blocks (a paragraph, a list, a table); the file joins them with one
// blank line, so no part has to manage the blank lines around it.
const list = (lines) => lines.join("\n");

function toolSection(tool, notes) {
  const resolve = resolverOf(tool.output.$defs, `${tool.name}'s output $defs`);
  const hints = [KIND_TEXT[kindOfTool(tool.annotations)]];
  if (!tool.annotations.readOnlyHint)
    hints.push(
      tool.annotations.idempotentHint ? "The same call again changes nothing more." : "Calling it twice acts twice.",
    );
  return [
    `### \`${tool.name}\``,
    `**${tool.title}.** ${hints.join(" ")}`,
    oneLine(tool.description),
    "Arguments:",
    list(fieldList(fieldsOf(tool.input, resolve), "input")),
    "Result:",
    list(fieldList(fieldsOf(tool.output, resolve), "output")),
    notes,
  ];
}

const PARAMETER_GROUPS = [
  ["path", "Path parameters:"],
  ["query", "Query parameters:"],
  ["header", "Headers:"],
];

function parameterBlocks(operation) {
  return PARAMETER_GROUPS.flatMap(([where, label]) => {
    const parameters = (operation.parameters ?? []).filter((p) => p.in === where);
    const fields = parameters.map((p) => ({
      name: p.name,
      type: typeText(p.schema),
      required: Boolean(p.required),
      description: oneLine(p.description ?? p.schema?.description),
    }));
    return fields.length ? [label, list(fieldList(fields, "input"))] : [];
  });
}

function bodyBlocks(operation, resolve) {
  const schema = operation.requestBody?.content?.["application/json"]?.schema;
  if (!schema) return [];
  const fields = fieldsOf(schema, resolve);
  if (!fields.length) return ["Body: `{}`."];
  const object = schema.$ref ? resolve(schema.$ref) : schema;
  const name = schema.$ref ? ` \`${refName(schema.$ref)}\`` : "";
  return [`Body (JSON${name}): ${oneLine(object.description)}`.trimEnd(), list(fieldList(fields, "input"))];
}

function answerBlocks(operation) {
  const answers = [];
  const errors = [];
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (Number(status) >= 400) {
      errors.push(...codesOf(response).map((code) => `${status} \`${code}\``));
      continue;
    }
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    const schema = media?.schema?.$ref ? `\`${refName(media.schema.$ref)}\`` : `\`${type}\``;
    const body = type ? `Body: ${schema}.` : "No body.";
    const headers = Object.keys(response.headers ?? {}).map((h) => `\`${h}\``);
    answers.push(
      `- \`${status}\`: ${oneLine(response.description)} ${body}${headers.length ? ` Headers: ${headers.join(", ")}.` : ""}`,
    );
  }
  return ["Answers:", list(answers), `Errors: ${errors.join(", ")}.`];
}

function operationSection(operation, notes, resolve) {
  const kind = KIND_TEXT[kindOfOperation(operation)];
  return [
    `### \`${operation.id}\`: \`${operation.method} ${operation.path}\``,
    `**${operation.summary}.** ${CREDENTIALS_TEXT[credentialsOf(operation)]} ${kind}`,
    operation.description.trim(),
    ...parameterBlocks(operation),
    ...bodyBlocks(operation, resolve),
    ...answerBlocks(operation),
    notes,
  ];
}

/** The component schemas a response or an event names, directly or through another, in the document's order. */
function answeredObjects(document, operations) {
  const named = new Set();
  const visit = (node) => {
    for (const [, name] of JSON.stringify(node).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (named.has(name)) continue;
      named.add(name);
      visit(document.components.schemas[name]);
    }
  };
  for (const operation of operations.values()) visit(operation.responses);
  visit(document.webhooks ?? {});
  return Object.keys(document.components.schemas).filter((name) => named.has(name));
}

function objectSection(schema, name, resolve) {
  return [`### ${name}`, oneLine(schema.description), list(fieldTable(fieldsOf(schema, resolve)))];
}

function eventTable(document) {
  const rows = Object.entries(document.webhooks ?? {}).map(([event, item]) => {
    const data = item.post.requestBody?.content?.["application/json"]?.schema?.properties?.data;
    return `| \`${event}\` | ${cell(item.post.summary)} | ${cell(data ? typeText(data) : "")} |`;
  });
  return list(["| Event | When | `data` |", "|---|---|---|", ...rows]);
}

/** The whole file: tools and operations in examples.md's order, objects and events in the document's. */
export function renderReference({ document, operations, tools, examples, origin, generatedNote }) {
  const resolve = resolverOf(document.components.schemas, "components.schemas");
  const inOrder = (names) => [...examples.entries.keys()].filter((name) => names.has(name));
  const toolOrder = inOrder(new Set(tools.map((t) => t.name)));
  const operationOrder = inOrder(new Set(operations.keys()));
  const objects = answeredObjects(document, operations);
  const names = (items) => items.map((n) => `\`${n}\``).join(", ");
  const blocks = [
    generatedNote,
    `# ${document.info.title}: reference`,
    list([
      "The details of every call, for [SKILL.md](../SKILL.md), which has the rules, sign-in, formats and error codes.",
      `\`${origin}\` stands for the origin that served this file.`,
    ]),
    "## Contents",
    list([
      `- ${TOOLS_GROUP}: ${names(toolOrder)}`,
      `- ${OPERATIONS_GROUP}: ${names(operationOrder)}`,
      `- Objects: ${names(objects)}`,
      "- Webhook events",
    ]),
    `## ${TOOLS_GROUP}`,
    examples.leads.get(TOOLS_GROUP),
    ...toolOrder.flatMap((name) =>
      toolSection(
        tools.find((t) => t.name === name),
        examples.entries.get(name),
      ),
    ),
    `## ${OPERATIONS_GROUP}`,
    examples.leads.get(OPERATIONS_GROUP),
    ...operationOrder.flatMap((id) => operationSection(operations.get(id), examples.entries.get(id), resolve)),
    "## Objects",
    ...objects.flatMap((name) => objectSection(document.components.schemas[name], name, resolve)),
    "## Webhook events",
    eventTable(document),
  ];
  return `${blocks.filter(Boolean).join("\n\n")}\n`;
}
