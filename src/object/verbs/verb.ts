import type * as z from "zod";
import type { AccountContext, AccountDb } from "../context";
import type { Event } from "../webhooks/outbox";
import type { EventType } from "../../domain/webhooks/schemas";

/**
 * What a verb raised, in its own transaction (account-object.ts): the events queued for the webhooks, and the
 * tasks whose reminders may have moved (tasks/reminders.ts).
 */
export interface Raised<T extends EventType = EventType> {
  events: Event<T>[];
  tasks: string[];
}

/**
 * The events of a writing verb, read from its arguments and its result, and, where the result cannot
 * say, from `before`: a look at the rows before it ran. `raises` names every type `after` may return
 * (the compiler holds `after` to it; test/account/verbs.test.ts holds every type to some verb).
 */
export interface EventRule<A, V, B, T extends EventType> {
  raises: readonly T[];
  before?: (db: AccountDb, args: A) => B;
  after: (db: AccountDb, args: A, value: V, before: B) => Raised<NoInfer<T>>;
}

/** A writing verb that raises no event says so: `events: none`. */
export const none = "none";

/** A zod schema of the verb's arguments (`TaskInput`), or of those that have one (`{ patch: TaskPatch }`). */
export type InputSchema<A> = z.ZodType<A> | { [K in keyof A]?: z.ZodType<NonNullable<A[K]>> };

interface Declaration<A, V> {
  /** The shared zod schema its surfaces validate with, where one exists (domain/.../schemas.ts). */
  input?: InputSchema<A>;
  /** Whether the account needs an active Max membership (403 `max_required` without one). */
  needsMax: boolean;
  /** What must be computed before the transaction, which cannot await (WebCrypto is asynchronous). */
  prepare?: (args: A) => Promise<A>;
  /** The verb itself: synchronous, inside the object's one transaction, after the credential was judged. */
  run: (ctx: AccountContext, args: A) => V;
}

/** A read: it writes nothing, so it raises nothing. */
export interface ReadVerb<A, V> extends Declaration<A, V> {
  writes: false;
}

/** A write: it declares its events, or `none`. */
export interface WriteVerb<A, V, B = unknown, T extends EventType = EventType> extends Declaration<A, V> {
  writes: true;
  events: EventRule<A, V, B, T> | typeof none;
}

/** Any verb, as the object's dispatcher and the test see it: the registry holds every argument and value type. */
export type Verb<A = any, V = any> = ReadVerb<A, V> | WriteVerb<A, V, any, EventType>;

/**
 * Declares one verb: everything a request's call does, in one place (src/object/verbs/<verb>.ts).
 * Arguments default to `undefined` for a verb that takes none.
 */
export function verb<A = undefined, V = unknown, B = undefined, const T extends EventType = never>(
  declaration: ReadVerb<A, V> | WriteVerb<A, V, B, T>,
): ReadVerb<A, V> | WriteVerb<A, V, B, T> {
  return declaration;
}
