/**
 * A software passkey for tests: a P-256 key made with WebCrypto, and the bytes a real authenticator would send,
 * built here by hand (attestation "none", authenticatorData, clientDataJSON, a DER-encoded ECDSA signature), so the
 * server's library verifies real signatures. Everything a test may falsify is a parameter: origin, RP ID, counter.
 */
const enc = new TextEncoder();

export const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** The CBOR this needs (RFC 8949): small ints, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, n: number) {
  if (n < 24) return new Uint8Array([(major << 5) | n]);
  if (n < 256) return new Uint8Array([(major << 5) | 24, n]);
  return new Uint8Array([(major << 5) | 25, n >> 8, n & 255]);
}
function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return concat(head(3, enc.encode(value).length), enc.encode(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** A raw r||s signature as ASN.1 DER, which WebAuthn's ES256 uses. */
function der(raw: Uint8Array) {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([2, body.length]), body);
  };
  const seq = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}

export interface Ceremony {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
}

export class SoftwareAuthenticator {
  readonly id = b64url(crypto.getRandomValues(new Uint8Array(16)));
  counter = 0;
  userHandle?: string;
  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create() {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return new SoftwareAuthenticator(keys);
  }

  private async authData(rpId: string, flags: number, attested = new Uint8Array()) {
    return concat(await sha256(enc.encode(rpId)), new Uint8Array([flags]), u32(this.counter), attested);
  }

  /** The answer to registration options, as `@simplewebauthn/browser`'s startRegistration returns it. */
  async register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, at: Ceremony = {}) {
    const origin = at.origin ?? "http://example.com";
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromB64url(jwk.x!)],
        [-3, fromB64url(jwk.y!)],
      ]),
    );
    const rawId = fromB64url(this.id);
    const attested = concat(new Uint8Array(16), new Uint8Array([rawId.length >> 8, rawId.length & 255]), rawId, cose);
    const flags = 0x41 | (at.userVerified === false ? 0 : 0x04);
    const authData = await this.authData(at.rpId ?? options.rp.id ?? "example.com", flags, attested);
    this.userHandle = options.user.id;
    const clientData = { type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false };
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: b64url(enc.encode(JSON.stringify(clientData))),
        attestationObject: b64url(
          cbor(
            new Map<Cbor, Cbor>([
              ["fmt", "none"],
              ["attStmt", new Map()],
              ["authData", authData],
            ]),
          ),
        ),
        transports: ["internal"],
      },
    };
  }

  /** The answer to authentication options, as startAuthentication returns it; the counter rises by one. */
  async assert(options: { challenge: string; rpId?: string }, at: Ceremony & { counter?: number } = {}) {
    this.counter = at.counter ?? this.counter + 1;
    const origin = at.origin ?? "http://example.com";
    const authData = await this.authData(at.rpId ?? options.rpId ?? "example.com", at.userVerified === false ? 1 : 5);
    const clientDataJSON = enc.encode(
      JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(der(raw)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}
