/**
 * ZIP reading with fflate's streaming `Unzip` (never a hand-written inflate). Limits count bytes
 * actually inflated, not the sizes the archive declares (a bomb lies about those), plus the entry
 * count and the inflation ratio. Entry names are display strings only: never paths, never object
 * keys. An archive with an absolute or climbing entry name is refused as a whole.
 *
 * Entries we do not read are not inflated at all: a decoder wrapper discards their bytes, so an
 * archive full of images costs neither CPU nor memory, and a bomb hidden in one costs nothing.
 */
import { Unzip, UnzipInflate, unzipSync, type FlateError, type UnzipDecoder } from 'fflate';
import { VaultFailure, vaultError, type VaultError } from '../errors';

export interface ZipLimits {
  maxEntries: number;
  /** Total bytes inflated from the entries read. */
  maxInflatedBytes: number;
  /** Inflated / compressed bytes of one entry above which it is taken for a bomb... */
  maxRatio: number;
  /** ...once it has inflated at least this much (small files compress oddly). */
  ratioFloorBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxInflatedBytes: 4 * 1024 * 1024 * 1024,
  maxRatio: 400,
  ratioFloorBytes: 16 * 1024 * 1024,
};

/** Absolute, drive-lettered, UNC or climbing (`..`) names, and NUL bytes. */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes('\u0000')) return true;
  if (/^[/\\]/u.test(name) || /^[a-z]:/iu.test(name)) return true;
  return name.split(/[/\\]/u).some((segment) => segment === '..');
}

function tooLarge(message: string, reason: string, detail: Record<string, unknown> = {}): VaultFailure {
  return new VaultFailure(vaultError('import/too-large', message, { reason, ...detail }));
}

function unsafe(archive: string, name: string): VaultFailure {
  return new VaultFailure(
    vaultError(
      'import/unsafe-archive',
      `${archive} was refused: it holds an entry whose name leaves the archive ("${name.slice(0, 120)}").`,
      {
        entry: name.slice(0, 300),
      },
    ),
  );
}

/**
 * Checks a whole archive held in memory before anything is inflated: entry count and names,
 * read from the central directory. Streaming input is checked entry by entry instead.
 */
export function inspectZip(bytes: Uint8Array, archive: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): VaultError | null {
  let count = 0;
  try {
    unzipSync(bytes, {
      filter(file) {
        if (++count > limits.maxEntries)
          throw tooLarge(`${archive} has more than ${limits.maxEntries} entries; refused as a possible zip bomb.`, 'entry-count');
        if (isUnsafeEntryName(file.name)) throw unsafe(archive, file.name);
        return false;
      },
    });
  } catch (thrown) {
    if (thrown instanceof VaultFailure) return thrown.toJSON();
    // No readable central directory (e.g. a streamed or cut archive): the streaming read decides.
  }
  return null;
}

export type ZipEvent =
  | { type: 'entry'; index: number; name: string; read: boolean }
  | { type: 'data'; index: number; data: Uint8Array }
  | { type: 'end'; index: number };

/**
 * Input is pushed in slices so one push can inflate at most 16 KiB x the deflate maximum ratio
 * (~1032), about 16 MiB, before the limits are checked: the worst transient a bomb can cause.
 */
const PUSH_BYTES = 16 * 1024;

export class ZipReader {
  private readonly unzip: Unzip;
  private events: ZipEvent[] = [];
  private error: VaultFailure | null = null;
  private entries = 0;
  private inflated = 0;
  private open = new Set<number>();
  /** Decision for the entry being started; read by the decoder constructors fflate calls in start(). */
  private wantCurrent = false;

  constructor(
    private readonly archive: string,
    wants: (name: string) => boolean,
    private readonly limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ) {
    this.unzip = new Unzip((file) => {
      if (this.error) return;
      const index = this.entries++;
      if (this.entries > limits.maxEntries) {
        this.error = tooLarge(`${archive} has more than ${limits.maxEntries} entries; refused as a possible zip bomb.`, 'entry-count');
        return;
      }
      if (isUnsafeEntryName(file.name)) {
        this.error = unsafe(archive, file.name);
        return;
      }
      const read = wants(file.name);
      this.events.push({ type: 'entry', index, name: file.name, read });
      if (file.compression !== 0 && file.compression !== 8) {
        if (read) {
          this.error = new VaultFailure(
            vaultError(
              'import/unsupported-archive',
              `${archive}: "${file.name}" uses compression method ${file.compression}, which cannot be read. Re-create the ZIP with standard compression.`,
            ),
          );
        }
        return;
      }
      if (read) this.open.add(index);
      file.ondata = (e: FlateError | null, data: Uint8Array | null, final: boolean) => this.onData(index, file.name, e, data, final, read);
      this.wantCurrent = read;
      file.start();
    });
    this.unzip.register(this.decoder(8));
    this.unzip.register(this.decoder(0));
  }

  /** Feeds archive bytes; returns what was found. Throws a VaultFailure on a refused archive. */
  push(chunk: Uint8Array, final = false): ZipEvent[] {
    try {
      for (let at = 0; at < chunk.length || (final && at === 0); at += PUSH_BYTES) {
        const piece = chunk.subarray(at, at + PUSH_BYTES);
        this.unzip.push(piece, final && at + PUSH_BYTES >= chunk.length);
        if (this.error) throw this.error;
      }
    } catch (thrown) {
      if (thrown instanceof VaultFailure) throw thrown;
      throw new VaultFailure(
        vaultError(
          'import/truncated',
          `${this.archive} ends early or is damaged (${thrown instanceof Error ? thrown.message : String(thrown)}).`,
        ),
      );
    }
    if (final && this.open.size > 0)
      throw new VaultFailure(vaultError('import/truncated', `${this.archive} ends early: an entry is cut off.`));
    const out = this.events;
    this.events = [];
    return out;
  }

  private onData(index: number, name: string, e: FlateError | null, data: Uint8Array | null, final: boolean, read: boolean): void {
    if (!read || this.error) return;
    if (e) {
      this.error = new VaultFailure(
        vaultError('import/unsupported-archive', `${this.archive}: "${name}" could not be inflated (damaged or encrypted): ${e.message}`),
      );
      return;
    }
    if (data && data.length > 0) {
      this.inflated += data.length;
      if (this.inflated > this.limits.maxInflatedBytes) {
        this.error = tooLarge(
          `${this.archive} inflates to more than ${this.limits.maxInflatedBytes} bytes; refused as too large (or a zip bomb).`,
          'inflated-bytes',
          {
            limit: this.limits.maxInflatedBytes,
          },
        );
        return;
      }
      this.events.push({ type: 'data', index, data });
    }
    if (final) {
      this.open.delete(index);
      this.events.push({ type: 'end', index });
    }
  }

  /** A decoder that inflates entries we read, checks their ratio, and drops everything else unread. */
  private decoder(compression: 0 | 8) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const reader = this;
    return class implements UnzipDecoder {
      static compression = compression;
      ondata: UnzipDecoder['ondata'] = () => {};
      private readonly inner: UnzipInflate | null;
      private readonly read = reader.wantCurrent;
      private compressed = 0;
      private out = 0;
      constructor() {
        this.inner = this.read && compression === 8 ? new UnzipInflate() : null;
        if (this.inner) this.inner.ondata = (e, d, f) => this.pass(e, d, f);
      }
      push(data: Uint8Array, final: boolean): void {
        if (!this.read || reader.error) return;
        this.compressed += data.length;
        if (this.inner) this.inner.push(data, final);
        // Stored entries: fflate hands out views of plain ArrayBuffers.
        else this.pass(null, data as Uint8Array<ArrayBuffer>, final);
      }
      private pass(e: FlateError | null, d: Uint8Array<ArrayBuffer>, f: boolean): void {
        this.out += d?.length ?? 0;
        const { maxRatio, ratioFloorBytes } = reader.limits;
        if (this.out > ratioFloorBytes && this.out > maxRatio * Math.max(this.compressed, 1)) {
          reader.error = tooLarge(
            `${reader.archive} holds an entry that inflates more than ${maxRatio}:1; refused as a zip bomb.`,
            'compression-ratio',
          );
          return;
        }
        this.ondata(e, d, f);
      }
    };
  }
}
