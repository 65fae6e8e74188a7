import { fromBase64url, toBase64url } from "../../src/domain/crypto";

/**
 * A browser and its push service, at the push service's HTTP boundary (RFC 8030): what a real device holds (a
 * P-256 key pair and a 16-byte secret, RFC 8291) and what a push service checks (the VAPID token, RFC 8292). The
 * tests record the object's POST to the endpoint (test/events/support.ts `receiver`) and read it as both would:
 * `openPush` decrypts the body with the device's private key, `verifyVapid` checks the Authorization header.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A VAPID pair as an operator makes it (docs/deploy.md): raw public point and private scalar, base64url. */
export async function vapidPair(subject = "mailto:ops@example.com") {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
  ])) as CryptoKeyPair;
  const raw = (await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return { VAPID_PUBLIC_KEY: toBase64url(new Uint8Array(raw)), VAPID_PRIVATE_KEY: jwk.d!, VAPID_SUBJECT: subject };
}

/** A device: its subscription JSON (as `PushSubscription.toJSON()` gives it) and the private key to read pushes. */
export async function pushDevice(endpoint = `https://push.example.net/send/${crypto.randomUUID()}`) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return {
    subscription: { endpoint, expirationTime: null, keys: { p256dh: toBase64url(publicRaw), auth: toBase64url(auth) } },
    privateKey: pair.privateKey,
    publicRaw,
    auth,
  };
}
export type PushDevice = Awaited<ReturnType<typeof pushDevice>>;

async function hkdf(salt: Uint8Array, ikm: ArrayBuffer | Uint8Array, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/** RFC 8291 §3.4 and RFC 8188, as a browser decrypts: one aes128gcm record, its padding removed. */
export async function openPush(device: PushDevice, body: Uint8Array): Promise<string> {
  const salt = body.slice(0, 16);
  const idLength = body[20]!;
  const serverKey = body.slice(21, 21 + idLength);
  const ciphertext = body.slice(21 + idLength);
  const server = await crypto.subtle.importKey("raw", serverKey, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const shared = await crypto.subtle.deriveBits(
    { name: "ECDH", public: server } as unknown as SubtleCryptoDeriveKeyAlgorithm,
    device.privateKey,
    256,
  );
  const keyInfo = new Uint8Array([...utf8("WebPush: info\0"), ...device.publicRaw, ...serverKey]);
  const ikm = await hkdf(device.auth, shared, keyInfo, 32);
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  const end = padded.lastIndexOf(2); // the last record's delimiter; zeros after it are padding
  if (end < 0 || padded.slice(end + 1).some((b) => b !== 0)) throw new Error("not a final aes128gcm record");
  return new TextDecoder().decode(padded.slice(0, end));
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT ES256-signed by that key for the endpoint's origin. */
export async function verifyVapid(authorization: string, endpoint: string) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a vapid Authorization header: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [header, payload, signature] = jwt.split(".") as [string, string, string];
  const key = await crypto.subtle.importKey("raw", fromBase64url(k), { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromBase64url(signature),
    utf8(`${header}.${payload}`),
  );
  const decode = (part: string) => JSON.parse(new TextDecoder().decode(fromBase64url(part)));
  return { valid, k, header: decode(header), claims: decode(payload), audience: new URL(endpoint).origin };
}
