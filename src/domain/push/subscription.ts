import * as z from "zod";
import { fromBase64url } from "../crypto";
import { publicUrlRefusal } from "../net/public-address";

/**
 * A device's push subscription as the browser gives it (`PushSubscription.toJSON()`, RFC 8030 and RFC 8291), and
 * what this service shows of one. The object sends to `endpoint` from its alarm, so the endpoint follows the
 * public-address rule of webhooks (https, a public host): a subscription cannot make the service POST to a
 * private network.
 */

/** At most this many devices per account; a new one past it replaces the oldest (push/subscriptions.ts). */
export const PUSH_SUBSCRIPTION_LIMIT = 20;

/** base64url bytes of an exact length, decoded by the rule the push library uses. */
const base64urlOf = (bytes: number, what: string) =>
  z
    .string()
    .max(200)
    .refine((value) => /^[A-Za-z0-9_-]+=*$/.test(value) && bytesOf(value) === bytes, {
      message: `must be ${what}: ${bytes} bytes, base64url`,
    });

function bytesOf(value: string): number {
  try {
    return fromBase64url(value).length;
  } catch {
    return -1;
  }
}

const Endpoint = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    let refusal: string | null;
    try {
      const url = new URL(value);
      refusal =
        url.username || url.password ? "The URL must not contain a user name or password." : publicUrlRefusal(url);
    } catch {
      refusal = "This is not a valid URL: it must be the push service's https URL.";
    }
    if (refusal) ctx.addIssue({ code: "custom", message: refusal });
  })
  .meta({
    description: "The push service's URL for this device (https).",
    example: "https://fcm.googleapis.com/fcm/send/dGVzdA",
  });

export const PushSubscriptionInput = z
  .object({
    endpoint: Endpoint,
    expirationTime: z.number().nullable().optional().meta({
      description: "When the browser says the subscription ends (ms since the epoch), if it says; not used.",
      example: null,
    }),
    keys: z
      .strictObject({
        p256dh: base64urlOf(65, "the device's P-256 public key").meta({
          description: "The device's P-256 public key (uncompressed, 65 bytes, base64url).",
          example: "BBGcM-1VnN2Sg0vZx2b8yBmQn3aFv4vg_RIq0D8eb7045H5VxZlDJEp4o3Dsnfg43AlkGfrhHJNnZdm4r4k2nIs",
        }),
        auth: base64urlOf(16, "the device's authentication secret").meta({
          description: "The device's authentication secret (16 bytes, base64url).",
          example: "x5bPFrv3PtUysUIGNsms4w",
        }),
      })
      .meta({ description: "The device's keys, which each push is encrypted to (RFC 8291)." }),
  })
  .meta({
    id: "PushSubscriptionInput",
    description: "The browser's `PushSubscription.toJSON()`, as it is: `endpoint`, `expirationTime`, `keys`.",
  });
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

export const PushSubscriptionView = z
  .object({
    id: z.string().meta({ description: "The device's id here.", example: "01938a2e-7c1f-7d3a-9b2e-4f5a6b7c8d9e" }),
    endpoint: z.string().meta({
      description: "The push service's URL for the device: how a page finds its own.",
      example: "https://fcm.googleapis.com/fcm/send/dGVzdA",
    }),
    device: z.string().meta({ description: "The device in words, from its User-Agent.", example: "Chrome on Linux" }),
    createdAt: z
      .string()
      .meta({ description: "When it was stored (RFC 3339 UTC).", example: "2026-11-27T09:00:00.000Z" }),
  })
  .meta({ id: "PushSubscription", description: "A device that gets reminders as notifications." });
export type PushSubscriptionView = z.infer<typeof PushSubscriptionView>;
