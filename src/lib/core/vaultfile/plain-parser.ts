import { fail } from '../errors';
import {
  checkManifest,
  CURRENT_FORMAT_VERSION,
  isPlainObject,
  isSectionEnd,
  isSectionStart,
  isTrailer,
  VAULT_FORMAT,
  type VaultManifest,
} from './format';
import { decodeRecord } from './record-codec';
import { isSectionName, SECTION_NAMES, type SectionBatch, type SectionName } from './sections';
import type { Sha256 } from './sha256';

/** What the reader yields, in file order. Records are provisional until `end` (see reader.ts). */
export type VaultReadEvent =
  | { kind: 'manifest'; manifest: VaultManifest; encrypted: boolean }
  | ({ kind: 'records' } & SectionBatch)
  | { kind: 'section-end'; section: SectionName; count: number }
  | { kind: 'end'; fileSha256: string };

type State = 'manifest' | 'start' | 'records' | 'end' | 'trailer' | 'done';

function corrupt(message: string, detail?: unknown): never {
  return fail('vault/corrupt', message, detail);
}

/**
 * The plain (decrypted) file as a synchronous state machine fed one line at a time, so the hot
 * loop over hundreds of thousands of lines has no await per line.
 */
export class PlainVaultParser {
  private state: State = 'manifest';
  private lineNo = 0;
  private fileSections: SectionName[] = [];
  private fileCounts: Record<string, number> = {};
  private sectionIndex = 0;
  private seen = 0;
  private batch: unknown[] = [];
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(
    private readonly fileHash: Sha256,
    private readonly sectionHash: Sha256,
    private readonly options: { encrypted: boolean; batchSize: number },
  ) {}

  /** Feeds one line (bytes including its "\n"); appends resulting events to `out`. */
  line(bytes: Uint8Array, out: VaultReadEvent[]): void {
    this.lineNo++;
    switch (this.state) {
      case 'manifest':
        this.fileHash.update(bytes);
        out.push(this.readManifest(this.parse(bytes)));
        this.state = this.fileSections.length > 0 ? 'start' : 'trailer';
        return;
      case 'start': {
        this.fileHash.update(bytes);
        const section = this.current();
        if (!isSectionStart(this.parse(bytes), section)) corrupt(`Line ${this.lineNo} should start section \`${section}\`.`, this.where());
        this.seen = 0;
        this.state = this.fileCounts[section] === 0 ? 'end' : 'records';
        return;
      }
      case 'records':
        // Covered by the file checksum through the section checksum in the section's end line.
        this.sectionHash.update(bytes);
        this.readRecord(bytes, out);
        return;
      case 'end':
        this.fileHash.update(bytes);
        this.readSectionEnd(this.parse(bytes), out);
        return;
      case 'trailer': {
        const value = this.parse(bytes);
        if (!isTrailer(value)) corrupt(`Line ${this.lineNo} should be the closing line of the file.`, this.where());
        if (value.fileSha256 !== this.fileHash.digestHex()) {
          corrupt('The file is damaged: its checksum does not match (the manifest or a section marker was changed).', this.where());
        }
        out.push({ kind: 'end', fileSha256: value.fileSha256 });
        this.state = 'done';
        return;
      }
      case 'done':
        corrupt('The file has data after its closing line.', this.where());
    }
  }

  /** End of input: anything short of a verified trailer is a truncated file. */
  finish(partial: Uint8Array | null): void {
    if (this.state === 'done') {
      if (partial) corrupt('The file has data after its closing line.', this.where());
      return;
    }
    const where =
      this.state === 'records' || this.state === 'end'
        ? `after ${this.seen} of ${this.fileCounts[this.current()]} records of section \`${this.current()}\``
        : this.state === 'manifest'
          ? 'before the end of its first line'
          : `at line ${this.lineNo}`;
    corrupt(`The file is truncated: it ends ${where}${partial ? ', in the middle of a line' : ''}.`, this.where());
  }

  private current(): SectionName {
    return this.fileSections[this.sectionIndex]!;
  }

  private where(): { line: number; section?: SectionName } {
    const section = this.fileSections[this.sectionIndex];
    return section && this.state !== 'manifest' && this.state !== 'trailer' ? { line: this.lineNo, section } : { line: this.lineNo };
  }

  private parse(bytes: Uint8Array): unknown {
    let text: string;
    try {
      text = this.decoder.decode(bytes.subarray(0, bytes.length - 1));
    } catch {
      return corrupt(`Line ${this.lineNo} is not valid UTF-8.`, this.where());
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return corrupt(`Line ${this.lineNo} is not valid JSON.`, this.where());
    }
  }

  private readManifest(raw: unknown): VaultReadEvent {
    if (!isPlainObject(raw) || raw.format !== VAULT_FORMAT) {
      corrupt('This is not an Engram vault file: its first line is not a vault manifest.', { line: 1 });
    }
    const manifestObject = raw as Record<string, unknown>;
    const version = manifestObject.version;
    if (typeof version !== 'number' || !Number.isInteger(version))
      return corrupt('The vault manifest has no valid format version.', { line: 1 });
    if (version > CURRENT_FORMAT_VERSION) {
      fail(
        'vault/newer-format',
        `This vault file was written by a newer version of Engram Vault (file format ${version}; this app reads formats up to ${CURRENT_FORMAT_VERSION}). Update the app to open it.`,
        { fileVersion: version, supportedVersion: CURRENT_FORMAT_VERSION },
      );
    }
    // Format 1 is the first that shipped: there is no older file to read.
    if (version !== CURRENT_FORMAT_VERSION) corrupt(`Vault file format ${version} is not one this app knows.`, { line: 1 });
    if ('encryption' in manifestObject) corrupt('An encrypted header appears where the plain manifest should be.', { line: 1 });
    this.readFraming(manifestObject);
    const checked = checkManifest(manifestObject);
    if (!checked.ok) return corrupt(`The vault manifest is not valid: ${checked.reason}.`, { line: 1 });
    return { kind: 'manifest', manifest: checked.manifest, encrypted: this.options.encrypted };
  }

  /** Which sections the file holds and how many lines each. */
  private readFraming(raw: Record<string, unknown>): void {
    const sections = raw.sections;
    const counts = raw.counts;
    if (!Array.isArray(sections) || !sections.every(isSectionName) || !isPlainObject(counts)) {
      corrupt('The vault manifest does not list its sections and counts.', { line: 1 });
    }
    const order = (sections as SectionName[]).map((name) => SECTION_NAMES.indexOf(name));
    if (order.some((position, i) => i > 0 && position <= order[i - 1]!))
      corrupt('The manifest lists sections twice or out of order.', { line: 1 });
    for (const name of sections as SectionName[]) {
      const count = (counts as Record<string, unknown>)[name];
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
        corrupt(`The manifest gives no valid count for section \`${name}\`.`, { line: 1 });
      }
      this.fileCounts[name] = count as number;
    }
    this.fileSections = sections as SectionName[];
  }

  private readRecord(bytes: Uint8Array, out: VaultReadEvent[]): void {
    const section = this.current();
    const decoded = decodeRecord(section, this.parse(bytes));
    if (!decoded.ok)
      corrupt(`Record ${this.seen + 1} of section \`${section}\` (line ${this.lineNo}) is not valid: ${decoded.reason}.`, this.where());
    this.batch.push(decoded.record);
    this.seen++;
    if (this.batch.length >= this.options.batchSize) this.flush(out);
    if (this.seen === this.fileCounts[section]) this.state = 'end';
  }

  private readSectionEnd(value: unknown, out: VaultReadEvent[]): void {
    const section = this.current();
    const expected = this.fileCounts[section]!;
    if (!isSectionEnd(value) || value.end !== section) {
      corrupt(`Line ${this.lineNo} should close section \`${section}\` after its ${expected} records.`, this.where());
    }
    if (value.count !== expected)
      corrupt(`Section \`${section}\` says it holds ${value.count} records; the manifest says ${expected}.`, this.where());
    if (value.sha256 !== this.sectionHash.digestHex()) {
      corrupt(`Section \`${section}\` is damaged: its checksum does not match its records.`, this.where());
    }
    this.flush(out);
    out.push({ kind: 'section-end', section, count: expected });
    this.sectionIndex++;
    this.state = this.sectionIndex < this.fileSections.length ? 'start' : 'trailer';
  }

  private flush(out: VaultReadEvent[]): void {
    if (this.batch.length === 0) return;
    out.push({ kind: 'records', section: this.current(), records: this.batch } as VaultReadEvent);
    this.batch = [];
  }
}
