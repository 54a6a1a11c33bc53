import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are stored with scrypt, a memory-hard KDF (N=2^15, r=8: 32 MiB per hash), as
 * `scrypt$N$r$p$salt$hash` so parameters can be raised later without breaking old hashes.
 */
const N = 1 << 15, R = 8, P = 1, KEYLEN = 32;
const MAXMEM = 128 * N * R * 2;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEYLEN,
      { N: n, r, p, maxmem: MAXMEM },
      (err, key) => err ? reject(err) : resolve(key),
    )
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), +n, +r, +p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The lower-case MD5 hex of a password's UTF-8 bytes: what Open API clients send (issue 22). */
export function passwordMd5(password: string): string {
  return createHash("md5").update(password, "utf8").digest("hex");
}

/**
 * The two verifiers an account keeps: scrypt of the password, and scrypt of its MD5 hex for
 * `jimi.oauth.token.get`, whose clients send only that MD5 (so the MD5 is a password of its
 * own: it is stored as carefully as the password).
 */
export async function passwordHashes(
  password: string,
): Promise<{ passwordHash: string; passwordMd5Hash: string }> {
  const [passwordHash, passwordMd5Hash] = await Promise.all([
    hashPassword(password),
    hashPassword(passwordMd5(password)),
  ]);
  return { passwordHash, passwordMd5Hash };
}

/** A hash to compare against when the account does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  return dummyHash ??= hashPassword("not-a-real-password-1");
}

/** Strong random password for the first administrator when ADMIN_PASSWORD is unset. */
export function generatePassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(16);
  let out = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
  if (!/[0-9]/.test(out)) out = out.slice(0, -1) + "7";
  if (!/[A-Za-z]/.test(out)) out = "a" + out.slice(1);
  return out;
}
