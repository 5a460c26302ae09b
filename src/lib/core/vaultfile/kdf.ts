import { argon2id } from 'hash-wasm';
import { bufferSource, fromBase64, toBase64 } from './bytes';
import { isPlainObject } from './format';

/**
 * Passphrase -> key-encryption key. Pure async functions of bytes and parameters (no DOM, no
 * globals beyond WebCrypto), so a worker can run them and hand back the 32 key bytes.
 *
 * - Argon2id through hash-wasm (WASM). Floor: OWASP's minimum configuration, 19 MiB memory,
 *   2 iterations, parallelism 1. Default: 64 MiB, 3 iterations, parallelism 1.
 * - PBKDF2-HMAC-SHA256 through WebCrypto, the fallback where WASM is unavailable: at least
 *   600,000 iterations (OWASP 2023).
 *
 * The file header records the parameters and salt; the reader refuses parameters below the floor
 * (a file must never be readable with a weaker KDF than the policy) and above a ceiling (a crafted
 * header must not make the app allocate gigabytes or spin for minutes).
 */

export interface Argon2idParams {
  name: 'argon2id';
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  /** Base64, 16-64 random bytes. */
  salt: string;
}

export interface Pbkdf2Params {
  name: 'pbkdf2-sha256';
  iterations: number;
  salt: string;
}

export type KdfParams = Argon2idParams | Pbkdf2Params;

/** What an exporter chooses; the salt is drawn when the file is written. */
export type KdfChoice = Omit<Argon2idParams, 'salt'> | Omit<Pbkdf2Params, 'salt'>;

export const ARGON2ID_MINIMUM = { memoryKiB: 19_456, iterations: 2, parallelism: 1 } as const;
export const ARGON2ID_DEFAULT: Omit<Argon2idParams, 'salt'> = { name: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1 };
/**
 * The ceiling an unauthenticated header may ask for: at most 4x the default cost (memory x
 * passes: 256 MiB x 3, or 128 MiB x 6, ...), at most 256 MiB of memory (what a tab can allocate
 * next to the app) and 4 lanes. Before the key is derived nothing in the header is authenticated,
 * so a crafted file asking for 1 GiB x 64 passes would hang or crash the tab.
 */
export const KDF_MAX_COST_FACTOR = 4;
export const ARGON2ID_MAXIMUM = { memoryKiB: 4 * 65_536, iterations: 4 * 3, parallelism: 4 } as const;
export const ARGON2ID_MAX_COST = KDF_MAX_COST_FACTOR * ARGON2ID_DEFAULT.memoryKiB * ARGON2ID_DEFAULT.iterations;
export const PBKDF2_MIN_ITERATIONS = 600_000;
export const PBKDF2_MAX_ITERATIONS = KDF_MAX_COST_FACTOR * PBKDF2_MIN_ITERATIONS;
export const PBKDF2_DEFAULT: Omit<Pbkdf2Params, 'salt'> = { name: 'pbkdf2-sha256', iterations: PBKDF2_MIN_ITERATIONS };
export const SALT_BYTES = 16;
export const KEY_BYTES = 32;

/** Derives `KEY_BYTES` from passphrase bytes and header parameters. Injectable (worker, tests). */
export type DeriveKeyFn = (passphrase: Uint8Array, params: KdfParams) => Promise<Uint8Array>;

const inRange = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function exactKeys(value: Record<string, unknown>, keys: string[]): boolean {
  return Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/** Validates header KDF parameters against the policy; the reason when they fail. */
export function checkKdfParams(value: unknown): { ok: true; params: KdfParams } | { ok: false; reason: string } {
  if (!isPlainObject(value)) return { ok: false, reason: 'KDF parameters are not an object' };
  const salt = typeof value.salt === 'string' ? fromBase64(value.salt) : null;
  if (!salt || salt.length < 16 || salt.length > 64) return { ok: false, reason: 'the salt is not 16-64 bytes of canonical base64' };
  if (value.name === 'argon2id') {
    if (!exactKeys(value, ['name', 'memoryKiB', 'iterations', 'parallelism', 'salt']))
      return { ok: false, reason: 'Argon2id parameters have unexpected fields' };
    const min = ARGON2ID_MINIMUM;
    const max = ARGON2ID_MAXIMUM;
    if (!inRange(value.memoryKiB, min.memoryKiB, max.memoryKiB))
      return { ok: false, reason: `Argon2id memory must be ${min.memoryKiB}-${max.memoryKiB} KiB` };
    if (!inRange(value.iterations, min.iterations, max.iterations))
      return { ok: false, reason: `Argon2id iterations must be ${min.iterations}-${max.iterations}` };
    if (!inRange(value.parallelism, min.parallelism, max.parallelism))
      return { ok: false, reason: `Argon2id parallelism must be ${min.parallelism}-${max.parallelism}` };
    // Argon2 needs at least 8 KiB per lane.
    if ((value.memoryKiB as number) < 8 * (value.parallelism as number))
      return { ok: false, reason: 'Argon2id memory is below 8 KiB per lane' };
    if ((value.memoryKiB as number) * (value.iterations as number) > ARGON2ID_MAX_COST)
      return { ok: false, reason: `Argon2id cost (memory x passes) is above ${KDF_MAX_COST_FACTOR}x the default` };
    return { ok: true, params: value as unknown as Argon2idParams };
  }
  if (value.name === 'pbkdf2-sha256') {
    if (!exactKeys(value, ['name', 'iterations', 'salt'])) return { ok: false, reason: 'PBKDF2 parameters have unexpected fields' };
    if (!inRange(value.iterations, PBKDF2_MIN_ITERATIONS, PBKDF2_MAX_ITERATIONS)) {
      return { ok: false, reason: `PBKDF2 iterations must be ${PBKDF2_MIN_ITERATIONS}-${PBKDF2_MAX_ITERATIONS}` };
    }
    return { ok: true, params: value as unknown as Pbkdf2Params };
  }
  return { ok: false, reason: 'unknown key-derivation function' };
}

/** Fresh parameters for an export: the chosen cost and a new random salt. */
export function newKdfParams(choice: KdfChoice, random: (length: number) => Uint8Array): KdfParams {
  const params = { ...choice, salt: toBase64(random(SALT_BYTES)) } as KdfParams;
  const checked = checkKdfParams(params);
  if (!checked.ok) throw new RangeError(`KDF parameters below policy: ${checked.reason}`);
  return checked.params;
}

/**
 * The bytes of a passphrase: Unicode NFC first, so the same passphrase typed on systems that
 * compose accents differently (macOS input is often NFD) derives the same key. Lone surrogates
 * are refused: UTF-8 would turn them into U+FFFD and two different passphrases would collide.
 */
export function passphraseBytes(passphrase: string): Uint8Array | null {
  if (passphrase.length === 0) return null;
  if (/\p{Cs}/u.test(passphrase)) return null;
  return new TextEncoder().encode(passphrase.normalize('NFC'));
}

/** Argon2id without policy (known-answer tests use the reference suite's small parameters). */
export async function argon2idRaw(
  password: Uint8Array,
  salt: Uint8Array,
  cost: { memoryKiB: number; iterations: number; parallelism: number },
  length: number,
): Promise<Uint8Array> {
  return argon2id({
    password,
    salt,
    memorySize: cost.memoryKiB,
    iterations: cost.iterations,
    parallelism: cost.parallelism,
    hashLength: length,
    outputType: 'binary',
  });
}

/** PBKDF2-HMAC-SHA256 through WebCrypto, without policy. */
export async function pbkdf2Sha256Raw(password: Uint8Array, salt: Uint8Array, iterations: number, length: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', bufferSource(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: bufferSource(salt), iterations }, key, length * 8);
  return new Uint8Array(bits);
}

/** The default DeriveKeyFn: policy-checked parameters, 32 bytes out. */
export const deriveKeyBytes: DeriveKeyFn = async (passphrase, params) => {
  const checked = checkKdfParams(params);
  if (!checked.ok) throw new RangeError(`KDF parameters rejected: ${checked.reason}`);
  const salt = fromBase64(params.salt)!;
  if (params.name === 'argon2id') return argon2idRaw(passphrase, salt, params, KEY_BYTES);
  return pbkdf2Sha256Raw(passphrase, salt, params.iterations, KEY_BYTES);
};
