import { fail } from '../errors';
import type { VectorRecord } from '../records';
import { createEncryption, DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from './crypto';
import { encryptChunks } from './encrypted-stream';
import {
  CURRENT_FORMAT_VERSION,
  VAULT_FORMAT,
  type SectionEndLine,
  type TrailerLine,
  type VaultExportMeta,
  type VaultManifest,
} from './format';
import { ARGON2ID_DEFAULT, deriveKeyBytes, newKdfParams, passphraseBytes, type DeriveKeyFn, type KdfChoice, type KdfParams } from './kdf';
import { decodeRecord, encodeRecord } from './record-codec';
import { REQUIRED_SECTIONS, type SectionName, type SectionRecords } from './sections';
import { acquireSha256, releaseSha256 } from './sha256';

export type RecordSource<T> = AsyncIterable<T> | Iterable<T>;

/** One table to export: how many records it has (stated in the manifest) and the records. */
export interface SectionSource<T> {
  count: number;
  records: RecordSource<T>;
}

/** Every table but vectors is required; leaving `vectors` out writes a file without vectors. */
export type VaultSections = { [K in Exclude<SectionName, 'vectors'>]: SectionSource<SectionRecords[K]> } & {
  vectors?: SectionSource<SectionRecords['vectors']>;
};

export interface EncryptOptions {
  passphrase: string;
  /** Default: Argon2id, 64 MiB, 3 iterations, parallelism 1. */
  kdf?: KdfChoice;
  /** Plaintext bytes per chunk; default 64 KiB. */
  chunkSize?: number;
  /** Where the key derivation runs (e.g. a worker); default in-thread `deriveKeyBytes`. */
  deriveKey?: DeriveKeyFn;
}

export interface WriteVaultOptions {
  encryption?: EncryptOptions;
  /** Randomness for keys, salts and nonces; default WebCrypto's CSPRNG. */
  random?: (length: number) => Uint8Array;
}

const defaultRandom = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length));
const encoder = new TextEncoder();
/** Records are encoded and emitted in pieces of about this many UTF-16 units. */
const PIECE_CHARS = 64 * 1024;

/**
 * Writes a vault file as a stream of bytes, pulling records only as the consumer reads (a file
 * sink, a download, a hash), so no part of the vault is ever held as one string. The stream errors
 * with a VaultFailure when a section yields a different number of records than its `count` (the
 * vault changed during export) or a record lacks what the reader requires.
 */
export function writeVault(meta: VaultExportMeta, sections: VaultSections, options: WriteVaultOptions = {}): ReadableStream<Uint8Array> {
  const encryption = options.encryption;
  const passphrase = encryption ? passphraseBytes(encryption.passphrase) : null;
  if (encryption && !passphrase) fail('input/invalid', 'The passphrase must not be empty (and must be well-formed text).');
  const plain = plainVaultBytes(meta, sections);
  if (!encryption || !passphrase) return toReadableStream(plain);
  const random = options.random ?? defaultRandom;
  const chunkSize = encryption.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
    fail('input/invalid', `The encryption chunk size must be ${MIN_CHUNK_SIZE}-${MAX_CHUNK_SIZE} bytes.`);
  }
  let kdf: KdfParams;
  try {
    kdf = newKdfParams(encryption.kdf ?? ARGON2ID_DEFAULT, random);
  } catch (thrown) {
    return fail('input/invalid', `The key-derivation settings are below the minimum this app accepts: ${(thrown as Error).message}.`);
  }
  return toReadableStream(
    (async function* () {
      const { headerLine, cipher } = await createEncryption({
        passphrase,
        kdf,
        chunkSize,
        random,
        deriveKey: encryption.deriveKey ?? deriveKeyBytes,
      });
      passphrase.fill(0);
      yield headerLine;
      yield* encryptChunks(plain, cipher);
    })(),
  );
}

function manifestOf(meta: VaultExportMeta, sections: VaultSections): VaultManifest {
  const names: SectionName[] = [...REQUIRED_SECTIONS, ...(sections.vectors ? (['vectors'] as const) : [])];
  const counts: Partial<Record<SectionName, number>> = {};
  for (const name of names) {
    const count = sections[name]!.count;
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count of section ${name} is not a non-negative integer`);
    counts[name] = count;
  }
  return {
    format: VAULT_FORMAT,
    version: CURRENT_FORMAT_VERSION,
    vaultId: meta.vaultId,
    createdAt: meta.createdAt,
    exportedAt: meta.exportedAt,
    appVersion: meta.appVersion,
    embeddingModelId: meta.embeddingModelId,
    vectorsIncluded: sections.vectors !== undefined,
    sections: names,
    counts,
  };
}

/** The plaintext file, piece by piece (see format.ts for the layout). */
export async function* plainVaultBytes(meta: VaultExportMeta, sections: VaultSections): AsyncGenerator<Uint8Array> {
  const manifest = manifestOf(meta, sections);
  const fileHash = await acquireSha256();
  const sectionHash = await acquireSha256();
  try {
    const frame = (value: unknown): Uint8Array => {
      const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
      fileHash.update(bytes);
      return bytes;
    };
    yield frame(manifest);
    for (const name of manifest.sections) {
      const source = sections[name]!;
      yield frame({ section: name });
      let text = '';
      let written = 0;
      const emit = (): Uint8Array => {
        const bytes = encoder.encode(text);
        // Record bytes go into the section checksum only; the section's end line (which carries that
        // checksum) goes into the file checksum. Every byte is hashed once.
        sectionHash.update(bytes);
        text = '';
        return bytes;
      };
      for await (const record of source.records as RecordSource<SectionRecords[typeof name]>) {
        written++;
        if (written > source.count) failCount(name, source.count, written);
        const problem = exportProblem(name, record);
        if (problem)
          fail('vault/failed', `Record ${written} of ${name} cannot be exported: ${problem}.`, { section: name, record: written });
        text += `${encodeRecord(name, record)}\n`;
        if (text.length >= PIECE_CHARS) yield emit();
      }
      if (written !== source.count) failCount(name, source.count, written);
      if (text.length > 0) yield emit();
      const end: SectionEndLine = { end: name, count: written, sha256: sectionHash.digestHex() };
      yield frame(end);
    }
    const trailer: TrailerLine = { trailer: VAULT_FORMAT, fileSha256: fileHash.digestHex() };
    yield encoder.encode(`${JSON.stringify(trailer)}\n`);
  } finally {
    releaseSha256(fileHash, sectionHash);
  }
}

function failCount(section: SectionName, expected: number, actual: number): never {
  const read = actual > expected ? `more than ${expected}` : String(actual);
  return fail(
    'vault/failed',
    `The vault changed while it was being exported: ${section} was counted at ${expected} records but ${read} were read.`,
    {
      section,
      expected,
    },
  );
}

/** Why the reader would refuse this record, so a bad row fails the export, not a later import. */
function exportProblem(section: SectionName, record: unknown): string | null {
  if (section === 'vectors') {
    const v = record as VectorRecord;
    return v.vector instanceof Float32Array && v.vector.length === v.dims ? null : '`vector` is not a Float32Array of `dims` values';
  }
  const check = decodeRecord(section, record);
  return check.ok ? null : check.reason;
}

/** A pull-driven stream over an async generator: the generator runs only as fast as it is read. */
export function toReadableStream(source: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}
