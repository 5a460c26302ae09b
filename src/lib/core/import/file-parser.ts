/**
 * Parses one file (or one ZIP entry) from byte chunks, synchronously: `push` bytes, get back the
 * conversations completed so far. A top-level JSON list is split element by element (bounded
 * memory, any size); any other document (one conversation, a wrapper object, a transcript,
 * pasted text) is read whole up to `maxDocumentChars`.
 *
 * It never throws on bad input: the first fatal problem is recorded in `errors` and further input
 * is ignored. The caller must then discard what this file yielded (see ParseSummary.errors).
 */
import { VaultFailure, vaultError, type VaultError } from '../errors';
import { label, type ElementParser, type ElementResult } from './context';
import { ByteDecoder } from './decode';
import { describeJson, detectDocument, detectElement, DETECT_WINDOW } from './detect';
import { isJsonContainer, looksLikeJson, parseJsonDocument, parseJsonLines, safeJsonParse } from './json';
import { JsonArraySplitter, SplitError, type SplitElement } from './json-array-splitter';
import {
  countMessages,
  emptyCounts,
  sourceOf,
  type ImportFormat,
  type MessageCounts,
  type ParsedConversation,
  type ParsedResource,
  type SkippedItem,
} from './parsed';
import { parserFor } from './parsers';
import { isTranscript, parseTextResource, parseTranscript, splitTranscript } from './transcript';

export interface ParserLimits {
  /** Largest single list element (one conversation), in characters. */
  maxElementChars: number;
  /** Largest document read whole (anything that is not a top-level list), in characters. */
  maxDocumentChars: number;
}

/**
 * One conversation is parsed whole: its text (1-2 bytes a character) and the parsed object (about
 * 2.3 bytes a character, measured with JSON.parse on a ChatGPT-shaped element of 34 M characters:
 * +76 MB of heap) live at once in the import worker. 32 M characters is then about 140 MB at the
 * peak, next to the import's own ~160 MB, which a tab holds; 256 M characters would need over a
 * gigabyte for one element. 32 M characters is also about 8 M tokens: eight times the largest
 * context any chat model offers, so no real conversation reaches it.
 */
export const MAX_ELEMENT_CHARS = 32 * 1024 * 1024;

export const DEFAULT_PARSER_LIMITS: ParserLimits = {
  maxElementChars: MAX_ELEMENT_CHARS,
  maxDocumentChars: 128 * 1024 * 1024,
};

export type Emitted = { type: 'conversation'; conversation: ParsedConversation } | { type: 'resource'; resource: ParsedResource };

export interface FileResult {
  format: ImportFormat | null;
  conversations: number;
  resources: number;
  messages: MessageCounts;
  skipped: SkippedItem[];
  unknownContentTypes: Map<string, number>;
  errors: VaultError[];
}

/** Characters looked at before deciding between a list, a whole document and text. */
const HEAD_CHARS = 4096;
const MAX_HEAD_CHARS = 1024 * 1024;

export class FileParser {
  private readonly decoder: ByteDecoder;
  private mode: 'head' | 'list' | 'whole' | 'stopped' = 'head';
  private head = '';
  private splitter: JsonArraySplitter | null = null;
  private pending: { value: unknown; index: number }[] = [];
  private whole: string[] = [];
  private wholeLength = 0;
  private parser: ElementParser | null = null;
  private pendingTypes = new Map<string, number>();
  readonly result: FileResult = {
    format: null,
    conversations: 0,
    resources: 0,
    messages: emptyCounts(),
    skipped: [],
    unknownContentTypes: new Map(),
    errors: [],
  };

  /**
   * @param name display name used in messages ("conversations.json in export.zip").
   * @param seen conversations already read in this import (format:id -> where), to skip repeats.
   */
  constructor(
    private readonly name: string,
    private readonly limits: ParserLimits = DEFAULT_PARSER_LIMITS,
    private readonly seen: Map<string, string> = new Map(),
  ) {
    this.decoder = new ByteDecoder(name);
  }

  get failed(): boolean {
    return this.result.errors.length > 0;
  }

  get bytesRead(): number {
    return this.decoder.bytesRead;
  }

  push(bytes: Uint8Array): Emitted[] {
    if (this.mode === 'stopped') return [];
    return this.guard((out) => this.text(this.decoder.push(bytes), false, out));
  }

  end(): Emitted[] {
    if (this.mode === 'stopped') return [];
    const out = this.guard((out) => this.text(this.decoder.end(), true, out));
    this.mode = 'stopped';
    return out;
  }

  /** What was emitted before a failure is still returned, so the counts match what was yielded. */
  private guard(run: (out: Emitted[]) => void): Emitted[] {
    const out: Emitted[] = [];
    try {
      run(out);
    } catch (thrown) {
      this.fail(thrown instanceof VaultFailure ? thrown.toJSON() : this.translate(thrown));
    }
    return out;
  }

  private translate(thrown: unknown): VaultError {
    if (thrown instanceof SplitError) {
      if (thrown.kind === 'truncated') {
        return vaultError(
          'import/truncated',
          `${this.name} ends early at byte ${this.bytesRead}: the JSON list is cut off. Export it again.`,
          {
            byteOffset: this.bytesRead,
          },
        );
      }
      if (thrown.kind === 'too-large') {
        return vaultError('import/too-large', `${this.name}: ${thrown.message}.`, { charOffset: thrown.charOffset });
      }
      return vaultError('import/not-json', `${this.name} is not valid JSON: ${thrown.message} (character ${thrown.charOffset}).`, {
        charOffset: thrown.charOffset,
      });
    }
    return vaultError('import/failed', `${this.name} could not be read: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }

  private fail(error: VaultError): void {
    this.result.errors.push(error);
    this.mode = 'stopped';
  }

  private text(chunk: string, final: boolean, out: Emitted[]): void {
    if (this.mode === 'head') {
      this.head += chunk;
      // Leading whitespace does not count: the decision needs the first real characters.
      if (!final && this.head.length < MAX_HEAD_CHARS && this.head.trimStart().length < HEAD_CHARS) return;
      chunk = this.head;
      this.head = '';
      this.decide(chunk);
    }
    if (this.mode === 'list') {
      for (const element of this.splitter!.push(chunk)) this.element(element, out);
      if (final) this.endList();
    } else if (this.mode === 'whole') {
      this.wholeLength += chunk.length;
      if (this.wholeLength > this.limits.maxDocumentChars) {
        this.fail(
          vaultError(
            'import/too-large',
            `${this.name} is too large to read as one document (over ${this.limits.maxDocumentChars} characters); only JSON lists are read piece by piece.`,
          ),
        );
        return;
      }
      this.whole.push(chunk);
      if (final) this.endWhole(out);
    }
  }

  private decide(head: string): void {
    if (head.slice(0, 8192).includes('\u0000')) {
      this.fail(vaultError('import/encoding', `${this.name} looks like binary data, not text or JSON.`));
    } else if (looksLikeJson(head) && head.trimStart().startsWith('[')) {
      this.mode = 'list';
      this.splitter = new JsonArraySplitter(this.limits.maxElementChars);
    } else this.mode = 'whole';
  }

  private element(el: SplitElement, out: Emitted[]): void {
    let value: unknown;
    try {
      value = safeJsonParse(el.text).value;
    } catch (thrown) {
      throw new VaultFailure(
        vaultError('import/not-json', `${this.name}: item #${el.index + 1} (from character ${el.charOffset}) is not valid JSON.`, {
          charOffset: el.charOffset,
          reason: thrown instanceof Error ? thrown.message : String(thrown),
        }),
      );
    }
    if (this.parser) return this.emit(this.parser(value, this.context(el.index)), out);
    this.pending.push({ value, index: el.index });
    const format = detectElement(value);
    if (format) {
      this.setFormat(format);
      for (const p of this.pending.splice(0)) this.emit(this.parser!(p.value, this.context(p.index)), out);
    } else if (this.pending.length >= DETECT_WINDOW) {
      this.unknown(
        `a JSON list whose first ${DETECT_WINDOW} items match no export we know; ${describeJson(this.pending.map((p) => p.value))}`,
      );
    }
  }

  private endList(): void {
    this.splitter!.end();
    if (this.parser) return;
    if (this.pending.length === 0) this.fail(vaultError('import/empty', `${this.name} holds an empty list: there is nothing to import.`));
    else this.unknown(describeJson(this.pending.map((p) => p.value)));
  }

  private endWhole(out: Emitted[]): void {
    const text = this.whole.join('');
    this.whole = [];
    if (text.trim() === '') return this.fail(vaultError('import/empty', `${this.name} is empty.`));
    if (!looksLikeJson(text) && !isJsonContainer(text)) return this.plainText(text, out);
    const enc = this.decoder.encoding;
    const origin = {
      name: this.name,
      totalBytes: this.bytesRead,
      prefixBytes: enc?.bomLength ?? 0,
      utf16: enc?.encoding !== 'utf-8' && enc !== null,
    };
    const parsed = parseJsonDocument(text, origin);
    let value: unknown;
    if (parsed.ok) value = parsed.value.value;
    else {
      const lines = parseJsonLines(text);
      if (!lines) return this.fail(parsed.error);
      value = lines;
    }
    const shape = detectDocument(value);
    if (!shape) return this.unknown(describeJson(value));
    this.setFormat(shape.format);
    shape.items.forEach((item, index) => this.emit(this.parser!(item, this.context(index)), out));
  }

  private plainText(text: string, out: Emitted[]): void {
    const split = splitTranscript(text);
    if (isTranscript(split)) {
      this.result.format = 'transcript';
      this.emit(parseTranscript(text), out);
    } else {
      this.result.format = 'text';
      this.result.resources++;
      out.push({ type: 'resource', resource: parseTextResource(text) });
    }
  }

  private unknown(looked: string): void {
    this.fail(vaultError('import/unknown-format', `${this.name} is not a chat export we know: it looks like ${looked}.`, { looked }));
  }

  private setFormat(format: ImportFormat): void {
    this.result.format = format;
    this.parser = parserFor(format);
  }

  /** Unknown types are collected per conversation and counted only if it is kept (not a repeat). */
  private context(index: number) {
    const types = new Map<string, number>();
    this.pendingTypes = types;
    return { index, unknownType: (type: string) => types.set(type, (types.get(type) ?? 0) + 1) };
  }

  private emit(result: ElementResult, out: Emitted[]): void {
    const types = this.pendingTypes;
    this.pendingTypes = new Map();
    if ('skipped' in result) {
      this.result.skipped.push(result.skipped);
      return;
    }
    const conv = result.conversation;
    const key = `${sourceOf(this.result.format!)}:${conv.externalId}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.result.skipped.push({
        what: conv.title ? label('conversation', conv.title, 0) : `conversation ${conv.externalId}`,
        reason: `it repeats a conversation already read from ${first}`,
      });
      return;
    }
    this.seen.set(key, this.name);
    for (const [type, n] of types) this.result.unknownContentTypes.set(type, (this.result.unknownContentTypes.get(type) ?? 0) + n);
    this.result.conversations++;
    countMessages(conv.messages, this.result.messages);
    out.push({ type: 'conversation', conversation: conv });
  }
}
