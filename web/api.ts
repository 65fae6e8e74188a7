/** Typed calls to the account JSON API. Errors arrive as RFC 9457 problem+json and become ApiError. */

export interface Membership {
  plan: "free" | "max";
  active: boolean;
  expiresAt: string | null;
}

export interface Account {
  id: string;
  email: string;
  timeZone: string;
  /** Where the account's data lives, chosen at sign-up. */
  dataLocation: "global" | "eu";
  membership: Membership;
  createdAt: string;
  totpEnabled: boolean;
  /** "unavailable": this deployment sends no mail. */
  emailVerification: "verified" | "pending" | "unavailable";
}

export interface ApiKey {
  id: string;
  name: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface Session {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
  userAgent: string | null;
  current: boolean;
}

/** One entry of the account's audit trail, with its facts (`method`, `address`, `app`, `name`). */
export interface SecurityEvent {
  type: string;
  at: string;
  device?: string;
  [fact: string]: string | number | boolean | null | undefined;
}

/** An app connected over OAuth (a hosted agent's connector). */
export interface Connection {
  id: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** The account's Stripe side (GET /account/billing); `enabled` is false while billing is not set up. */
export interface BillingStatus {
  enabled: boolean;
  customer: boolean;
  paymentFailedAt: string | null;
  subscription: { status: string; currentPeriodEnd: string | null; cancelAt: string | null } | null;
}

export interface Delivery {
  eventId: string;
  type: string;
  attempt: number;
  status?: number;
  error?: string;
  at: string;
}

/** Reminders by email (GET/PUT /account/notifications). */
export interface Notifications {
  emailReminders: boolean;
  dailyDigest: { enabled: boolean; time: string | null };
  unavailable: "mail_off" | "email_unverified" | null;
}
export type NotificationsInput = { emailReminders: boolean; dailyDigest?: { enabled: boolean; time?: string } };

export interface PageWebhook {
  id: string;
  url: string;
  events: string[];
  description?: string;
  enabled: boolean;
  disabledReason?: string;
  previousSecretExpiresAt?: string;
  recentFailures: Delivery[];
  recentDeliveries: Delivery[];
  pending: { eventId: string; type: string; attempts: number; nextAttemptAt: string }[];
}

/** A webhook as created or rotated: its secret, shown once. */
export type WebhookSecret = Omit<PageWebhook, "recentFailures" | "recentDeliveries" | "pending"> & { secret: string };

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A WebAuthn ceremony's JSON (the browser library's own types; the page only passes them through). */
type Json = Record<string, unknown>;

export interface FieldError {
  path: string;
  message: string;
}

export interface ImportResult {
  imported: { tasks: number; lists: number; labels: number };
  skipped: { line: number; reason: string }[];
}

export interface ApiRoot {
  contact?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

const OFFLINE = "Could not reach the server. Check your connection and try again.";

function toApiError(status: number, body: unknown): ApiError {
  const problem = (body ?? {}) as Partial<{ code: string; detail: string; title: string; errors: FieldError[] }>;
  const detail = problem.detail ?? problem.title ?? `The server answered ${status}. Try again later.`;
  return new ApiError(status, problem.code ?? "unknown", detail, Array.isArray(problem.errors) ? problem.errors : []);
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** The page's signed-in marker (web/session.ts), never sent: the session travels in its HttpOnly cookie. */
  token?: string | null;
  /** Sign-up and sign-in: they set the session cookie, and the device cookie that spares this browser a lockout. */
  deviceCookie?: boolean;
  /** Further request headers (the tasks page: If-Match, Idempotency-Key). */
  headers?: Record<string, string>;
  /** Let the request outlive the page (the tasks page sends a pending delete while it closes). */
  keepalive?: boolean;
  /** A file sent as it is, in its own media type (the import), instead of a JSON body. */
  upload?: { file: Blob; type: string };
}

async function send(path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.upload) headers["Content-Type"] = options.upload.type;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? "GET",
      headers,
      body: options.upload?.file ?? (options.body === undefined ? null : JSON.stringify(options.body)),
      // The session cookie (HttpOnly, SameSite=Lax) goes with every call to this site, never to another.
      credentials: "same-origin",
      cache: "no-store",
      keepalive: options.keepalive ?? false,
    });
  } catch {
    throw new ApiError(0, "network", OFFLINE);
  }
  if (!response.ok) throw toApiError(response.status, await parsed(response));
  return response;
}

async function parsed(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  return (await parsed(response)) as T;
}

/** The export as a file: its bytes and the name the server suggests. */
async function download(path: string, token: string): Promise<{ blob: Blob; filename: string }> {
  const response = await send(path, { token });
  const disposition = response.headers.get("content-disposition") ?? "";
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "todo-export.json";
  return { blob: await response.blob(), filename };
}

type Credentials = { email: string; password: string };
type SignUpBody = Credentials & { dataLocation?: Account["dataLocation"] };
type SessionResult = { token: string; account: Account };

export const api = {
  signUp: (body: SignUpBody) => call<SessionResult>("/auth/signup", { method: "POST", body, deviceCookie: true }),
  logIn: (body: Credentials & { code?: string }) =>
    call<SessionResult>("/auth/login", { method: "POST", body, deviceCookie: true }),
  logOut: (token: string) => call<void>("/auth/logout", { method: "POST", token }),
  getAccount: (token: string) => call<Account>("/account", { token }),
  updateAccount: (token: string, body: { timeZone: string }) =>
    call<Account>("/account", { method: "PATCH", body, token }),
  listKeys: (token: string) => call<{ data: ApiKey[] }>("/account/api-keys", { token }).then((r) => r.data),
  createKey: (token: string, name: string) =>
    call<ApiKey & { key: string }>("/account/api-keys", { method: "POST", body: { name }, token }),
  revokeKey: (token: string, id: string) =>
    call<void>(`/account/api-keys/${encodeURIComponent(id)}`, { method: "DELETE", token }),
  listConnections: (token: string) =>
    call<{ data: Connection[] }>("/account/connections", { token }).then((r) => r.data),
  revokeConnection: (token: string, id: string) =>
    call<void>(`/account/connections/${encodeURIComponent(id)}`, { method: "DELETE", token }),
  listSessions: (token: string) => call<{ data: Session[] }>("/account/sessions", { token }).then((r) => r.data),
  endSession: (token: string, id: string) =>
    call<void>(`/account/sessions/${encodeURIComponent(id)}`, { method: "DELETE", token }),
  endAllSessions: (token: string) => call<void>("/account/sessions", { method: "DELETE", token }),
  listSecurityEvents: (token: string) =>
    call<{ data: SecurityEvent[] }>("/account/security-events", { token }).then((r) => r.data),
  changePassword: (token: string, body: ({ currentPassword: string } | { passkey: Json }) & { newPassword: string }) =>
    call<void>("/account/password", { method: "POST", body, token }),
  exportAccount: (token: string) => download("/account/export", token),
  importFile: (token: string, file: File, list: string) =>
    call<ImportResult>(`/account/import?list=${encodeURIComponent(list)}`, {
      method: "POST",
      token,
      upload: { file, type: /\.json$/i.test(file.name) ? "application/json" : "text/csv" },
    }),
  deleteAccount: (token: string, proof: { password: string } | { passkey: Json }) =>
    call<void>("/account", { method: "DELETE", body: proof, token }),
  getBilling: (token: string) => call<BillingStatus>("/account/billing", { token }),
  checkout: (token: string) => call<{ url: string }>("/account/billing/checkout", { method: "POST", body: {}, token }),
  billingPortal: (token: string) =>
    call<{ url: string }>("/account/billing/portal", { method: "POST", body: {}, token }),
  getNotifications: (token: string) => call<Notifications>("/account/notifications", { token }),
  setNotifications: (token: string, body: NotificationsInput) =>
    call<Notifications>("/account/notifications", { method: "PUT", body, token }),
  getFeed: (token: string) => call<{ enabled: boolean; createdAt?: string }>("/account/feed", { token }),
  rotateFeed: (token: string) =>
    call<{ url: string; webcalUrl: string }>("/account/feed", { method: "POST", body: {}, token }),
  deleteFeed: (token: string) => call<void>("/account/feed", { method: "DELETE", token }),
  listWebhooks: (token: string) => call<{ data: PageWebhook[] }>("/account/webhooks", { token }).then((r) => r.data),
  setWebhookEnabled: (token: string, id: string, enabled: boolean) =>
    call<PageWebhook>(`/account/webhooks/${encodeURIComponent(id)}`, { method: "PATCH", body: { enabled }, token }),
  createWebhook: (token: string, body: { url: string; description?: string }) =>
    call<WebhookSecret>("/account/webhooks", { method: "POST", body, token }),
  rotateWebhookSecret: (token: string, id: string) =>
    call<WebhookSecret>(`/account/webhooks/${encodeURIComponent(id)}/rotate-secret`, {
      method: "POST",
      body: {},
      token,
    }),
  deleteWebhook: (token: string, id: string) =>
    call<void>(`/account/webhooks/${encodeURIComponent(id)}`, { method: "DELETE", token }),
  root: () => call<ApiRoot>("/api/v1/"),
  startTotp: (token: string) =>
    call<{ secret: string; otpauthUri: string }>("/account/totp", { method: "POST", token }),
  confirmTotp: (token: string, code: string) =>
    call<{ recoveryCodes: string[] }>("/account/totp/confirm", { method: "POST", body: { code }, token }),
  disableTotp: (token: string, code: string) =>
    call<void>("/account/totp", { method: "DELETE", body: { code }, token }),
  listPasskeys: (token: string) => call<{ data: Passkey[] }>("/account/passkeys", { token }).then((r) => r.data),
  passkeyRegistrationOptions: (token: string) =>
    call<Json>("/account/passkeys/registration-options", { method: "POST", token }),
  addPasskey: (token: string, body: { name: string; response: Json }) =>
    call<Passkey>("/account/passkeys", { method: "POST", body, token }),
  renamePasskey: (token: string, id: string, name: string) =>
    call<Passkey>(`/account/passkeys/${encodeURIComponent(id)}`, { method: "PATCH", body: { name }, token }),
  removePasskey: (token: string, id: string) =>
    call<void>(`/account/passkeys/${encodeURIComponent(id)}`, { method: "DELETE", token }),
  passkeyConfirmationOptions: (token: string) =>
    call<Json>("/account/passkeys/confirmation-options", { method: "POST", token }),
  passkeySignInOptions: () => call<Json>("/auth/passkey/options", { method: "POST" }),
  logInWithPasskey: (response: Json) =>
    call<SessionResult>("/auth/passkey", { method: "POST", body: { response }, deviceCookie: true }),
  resendVerification: (token: string) => call<void>("/auth/verify/resend", { method: "POST", token }),
  changeEmail: (token: string, body: { email: string; password: string }) =>
    call<void>("/account/email", { method: "POST", body, token }),
  verify: (token: string) => call<void>("/auth/verify", { method: "POST", body: { token } }),
  requestReset: (email: string) => call<void>("/auth/password-reset", { method: "POST", body: { email } }),
  confirmReset: (token: string, newPassword: string) =>
    call<void>("/auth/password-reset/confirm", { method: "POST", body: { token, newPassword } }),
};
