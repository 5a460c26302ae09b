import { decodeRecord, encodeRecord } from '../core/vaultfile/record-codec';
import type { SectionName, SectionRecords } from '../core/vaultfile/sections';

/**
 * Records held off the JavaScript heap between two steps of an export, restore or merge: each
 * page is encoded as record lines (the vault file's own codec, so vectors keep their exact bits)
 * into a Blob. Browsers keep large Blobs in their blob store, which spills to disk, so a vault of
 * hundreds of MB is never one array of objects in memory; in Node a Blob lives outside the V8
 * heap. Nothing is written to IndexedDB, so a crash or a cancel leaves nothing to clean up.
 */
export class Spool {
  private readonly pagesBySection = new Map<SectionName, Blob[]>();
  private readonly counts = new Map<SectionName, number>();

  append<K extends SectionName>(section: K, records: readonly SectionRecords[K][]): void {
    if (records.length === 0) return;
    let text = '';
    for (const record of records) text += `${encodeRecord(section, record)}\n`;
    const pages = this.pagesBySection.get(section) ?? [];
    pages.push(new Blob([text]));
    this.pagesBySection.set(section, pages);
    this.counts.set(section, (this.counts.get(section) ?? 0) + records.length);
  }

  count(section: SectionName): number {
    return this.counts.get(section) ?? 0;
  }

  /** The records of a section, page by page, in the order they were appended. */
  async *pages<K extends SectionName>(section: K): AsyncGenerator<SectionRecords[K][]> {
    for (const blob of this.pagesBySection.get(section) ?? []) {
      const text = await blob.text();
      const records: SectionRecords[K][] = [];
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        const decoded = decodeRecord(section, JSON.parse(text.slice(start, end)) as unknown);
        if (!decoded.ok) throw new Error(`spooled ${section} record does not decode: ${decoded.reason}`);
        records.push(decoded.record);
        start = end + 1;
      }
      yield records;
    }
  }

  async *records<K extends SectionName>(section: K): AsyncGenerator<SectionRecords[K]> {
    for await (const page of this.pages(section)) yield* page;
  }

  clear(): void {
    this.pagesBySection.clear();
    this.counts.clear();
  }
}
