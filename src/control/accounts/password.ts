import { fromHex, timingSafeEqual, toHex } from "../../domain/crypto";

// 100,000 is the most PBKDF2 iterations the Workers runtime allows.
const ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, 256);
  return new Uint8Array(bits);
}

/** `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, so the cost can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${ITERATIONS}$${toHex(salt)}$${toHex(await derive(password, salt, ITERATIONS))}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  return timingSafeEqual(await derive(password, fromHex(salt), Number(iterations)), fromHex(hash));
}

/** A fixed hash to verify against when the email is unknown, so timing does not reveal it. */
export const DUMMY_PASSWORD_HASH = `pbkdf2-sha256$${ITERATIONS}$${"00".repeat(16)}$${"00".repeat(32)}`;
