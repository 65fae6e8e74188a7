import { authenticate } from "./authenticate";
import { completeTask } from "./complete-task";
import { createLabel } from "./create-label";
import { createList } from "./create-list";
import { createTask } from "./create-task";
import { createWebhook } from "./create-webhook";
import { deleteFeed } from "./delete-feed";
import { deleteLabel } from "./delete-label";
import { deleteList } from "./delete-list";
import { deleteTask } from "./delete-task";
import { deleteWebhook } from "./delete-webhook";
import { getFeed } from "./get-feed";
import { getTask } from "./get-task";
import { identify } from "./identify";
import { importTasks } from "./import-tasks";
import { addPushSubscription } from "./add-push-subscription";
import { listPushSubscriptions } from "./list-push-subscriptions";
import { removePushSubscription } from "./remove-push-subscription";
import { listAccountWebhooks } from "./list-account-webhooks";
import { listLabels } from "./list-labels";
import { listLists } from "./list-lists";
import { listTasks } from "./list-tasks";
import { listTasksWithLists } from "./list-tasks-with-lists";
import { listWebhookDeliveries } from "./list-webhook-deliveries";
import { listWebhooks } from "./list-webhooks";
import { moveTask } from "./move-task";
import { rotateFeed } from "./rotate-feed";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { testWebhook } from "./test-webhook";
import { updateLabel } from "./update-label";
import { updateList } from "./update-list";
import { updateTask } from "./update-task";
import { updateWebhook } from "./update-webhook";
import type { Verb } from "./verb";

/**
 * Every verb a task request may call on its account's object, by name: each declared whole in its own
 * file (verb.ts says what a declaration holds). The object's `run` dispatches from here, and REST, MCP
 * and the page take their call's types from here (`runVerb(caller, "createTask", args)`): one call
 * per request.
 */
export const verbs = {
  authenticate,
  identify,
  listTasks,
  getTask,
  createTask,
  updateTask,
  completeTask,
  deleteTask,
  moveTask,
  listLists,
  createList,
  updateList,
  deleteList,
  listLabels,
  createLabel,
  updateLabel,
  deleteLabel,
  listTasksWithLists,
  listWebhooks,
  listAccountWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  testWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  getFeed,
  rotateFeed,
  deleteFeed,
  importTasks,
  listPushSubscriptions,
  addPushSubscription,
  removePushSubscription,
} satisfies Record<string, Verb>;

export type VerbName = keyof typeof verbs;
export type VerbArgs<V extends VerbName> = Parameters<(typeof verbs)[V]["run"]>[1];
export type VerbValue<V extends VerbName> = ReturnType<(typeof verbs)[V]["run"]>;

/** The verb of that name, typed by it (the registry's entries differ in their arguments' and values' types). */
export const verbOf = <V extends VerbName>(name: V) => verbs[name] as Verb<VerbArgs<V>, VerbValue<V>>;
