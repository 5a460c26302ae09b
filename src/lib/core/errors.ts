/**
 * The one error shape of the app. Plain data, so it survives postMessage / structured clone and
 * JSON. Every layer returns or throws this shape; the UI turns it into a sentence and a next step.
 */
export type ErrorCode =
  | 'store/timeout'
  | 'store/quota-exceeded'
  | 'store/not-found'
  | 'store/conflict'
  | 'store/upgrade-blocked'
  | 'store/failed'
  | 'job/unknown-type'
  | 'job/failed'
  | 'job/lease-expired'
  | 'worker/timeout'
  | 'worker/crashed'
  | 'worker/stale'
  | 'worker/unavailable'
  | 'cli/usage'
  | 'input/invalid'
  // curation (issue 17: the quality gate refuses a keep)
  | 'curate/gate-refused'
  // import (issue: import every chat archive)
  | 'import/empty'
  | 'import/not-json'
  | 'import/unknown-format'
  | 'import/truncated'
  | 'import/encoding'
  | 'import/unsupported-archive'
  | 'import/too-large'
  | 'import/unsafe-archive'
  | 'import/cancelled'
  | 'import/failed'
  // indexing and models
  | 'index/corrupt'
  | 'index/failed'
  | 'embed/unavailable'
  | 'embed/failed'
  | 'llm/unavailable'
  | 'llm/timeout'
  | 'llm/invalid-output'
  | 'llm/failed'
  | 'llm/cancelled'
  | 'llm/unreachable'
  | 'llm/context-too-long'
  // recall
  | 'recall/failed'
  | 'recall/cancelled'
  // vault file and encryption
  | 'vault/newer-format'
  | 'vault/corrupt'
  | 'vault/wrong-passphrase'
  | 'vault/passphrase-required'
  | 'vault/failed'
  // capture
  | 'capture/origin'
  | 'capture/invalid'
  | 'capture/too-large'
  | 'capture/unconfirmed'
  // separate vaults (issue 15)
  | 'vaults/invalid-name'
  | 'vaults/not-found'
  | 'vaults/in-use'
  // agent tools (MCP, WebMCP)
  | 'agent/unknown-vault'
  | 'agent/not-found'
  | 'agent/refused'
  | 'agent/loading'
  | 'internal/unexpected';

export interface VaultError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly detail?: unknown;
}

export function vaultError(code: ErrorCode, message: string, detail?: unknown): VaultError {
  return detail === undefined ? { code, message } : { code, message, detail };
}

export function isVaultError(value: unknown): value is VaultError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string' && v.code.includes('/');
}

/** Turns anything thrown into a VaultError, keeping an existing one unchanged. */
export function toVaultError(thrown: unknown, fallback: ErrorCode = 'internal/unexpected'): VaultError {
  if (isVaultError(thrown)) return thrown;
  if (thrown instanceof Error) {
    if (thrown.name === 'QuotaExceededError' || /quota/i.test(thrown.message)) {
      return vaultError(
        'store/quota-exceeded',
        'The browser refused to store more data: the disk or the storage quota is full.',
        thrown.message,
      );
    }
    return vaultError(fallback, thrown.message, { name: thrown.name });
  }
  return vaultError(fallback, typeof thrown === 'string' ? thrown : 'Something unexpected went wrong.', thrown);
}

/** The result of an operation that fails on bad input instead of throwing past a boundary. */
export type Result<T, E = VaultError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E = VaultError>(error: E): Result<never, E> => ({ ok: false, error });

/** Thrown form of a VaultError, for code paths where throwing is the natural control flow. */
export class VaultFailure extends Error implements VaultError {
  readonly code: ErrorCode;
  readonly detail?: unknown;
  constructor(error: VaultError) {
    super(error.message);
    this.name = 'VaultFailure';
    this.code = error.code;
    if (error.detail !== undefined) this.detail = error.detail;
  }
  toJSON(): VaultError {
    return vaultError(this.code, this.message, this.detail);
  }
}

export function fail(code: ErrorCode, message: string, detail?: unknown): never {
  throw new VaultFailure(vaultError(code, message, detail));
}

/** A structured-clone- and JSON-safe copy of an error (a VaultFailure is an Error; this is not). */
export function plainError(thrown: unknown): VaultError {
  const error = toVaultError(thrown);
  if (error.detail === undefined) return { code: error.code, message: error.message };
  let detail: unknown;
  try {
    detail = JSON.parse(JSON.stringify(error.detail)) as unknown;
  } catch {
    detail = String(error.detail);
  }
  return { code: error.code, message: error.message, detail };
}
