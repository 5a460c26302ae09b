/**
 * Streaming splitter for a top-level JSON array: feed it text chunks, get back the source text of
 * each complete element, so each conversation of a 500 MB export is parsed on its own. One
 * `JSON.parse` over the whole file is impossible past ~512 MiB (V8's string limit) and would hold
 * the whole object graph at once; this holds one element's text at a time.
 *
 * It only finds element boundaries (strings, escapes, nesting, chunk borders); each element is
 * validated by `JSON.parse` afterwards. Measured in the import report: see parse-stream.ts.
 */

export type SplitErrorKind = 'syntax' | 'truncated' | 'too-large';

export class SplitError extends Error {
  constructor(
    readonly kind: SplitErrorKind,
    /** Character offset in the whole text where the problem was seen. */
    readonly charOffset: number,
    message: string,
  ) {
    super(message);
    this.name = 'SplitError';
  }
}

export interface SplitElement {
  text: string;
  index: number;
  /** Character offset of the element's first character in the whole text. */
  charOffset: number;
}

const enum Phase {
  Start,
  BeforeElement,
  InElement,
  AfterElement,
  Done,
}

const enum Kind {
  Container,
  String,
  Bare,
}

const QUOTE = 0x22;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** First characters a JSON value can start with, other than `{`, `[` and `"`. */
function isBareStart(c: number): boolean {
  return c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
}

export class JsonArraySplitter {
  private phase = Phase.Start;
  private kind = Kind.Container;
  private depth = 0;
  private inString = false;
  /** A backslash ended the previous chunk inside a string: the next character is escaped. */
  private escapePending = false;
  private afterComma = false;
  private parts: string[] = [];
  private partsLength = 0;
  private elementStart = 0;
  private offset = 0;
  private count = 0;

  /** @param maxElementChars an element longer than this is refused (bounded memory). */
  constructor(private readonly maxElementChars = 32 * 1024 * 1024) {}

  /** Elements completed so far. */
  get elements(): number {
    return this.count;
  }

  /** True once the closing bracket was read. */
  get done(): boolean {
    return this.phase === Phase.Done;
  }

  /** Characters consumed so far. */
  get charsRead(): number {
    return this.offset;
  }

  push(chunk: string): SplitElement[] {
    const out: SplitElement[] = [];
    const n = chunk.length;
    let i = 0;
    let segStart = this.phase === Phase.InElement ? 0 : -1;
    let nextQuote = -2;
    let nextBackslash = -2;

    while (i < n) {
      switch (this.phase) {
        case Phase.Start: {
          const c = chunk.charCodeAt(i);
          if (isSpace(c)) i++;
          else if (c === 0x5b) {
            this.phase = Phase.BeforeElement;
            this.afterComma = false;
            i++;
          } else throw this.syntax(i, 'expected "[" at the start of a JSON list');
          break;
        }
        case Phase.BeforeElement: {
          const c = chunk.charCodeAt(i);
          if (isSpace(c)) {
            i++;
            break;
          }
          if (c === 0x5d && !this.afterComma) {
            this.phase = Phase.Done;
            i++;
            break;
          }
          segStart = i;
          this.elementStart = this.offset + i;
          this.phase = Phase.InElement;
          if (c === 0x7b || c === 0x5b) {
            this.kind = Kind.Container;
            this.depth = 1;
          } else if (c === QUOTE) {
            this.kind = Kind.String;
            this.inString = true;
          } else if (isBareStart(c)) this.kind = Kind.Bare;
          else throw this.syntax(i, 'expected a value in the JSON list');
          i++;
          break;
        }
        case Phase.InElement: {
          let end = -1;
          if (this.inString) {
            if (this.escapePending) {
              this.escapePending = false;
              i++;
              break;
            }
            if (nextQuote !== -1 && nextQuote < i) nextQuote = chunk.indexOf('"', i);
            if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = chunk.indexOf('\\', i);
            if (nextBackslash !== -1 && (nextQuote === -1 || nextBackslash < nextQuote)) {
              i = nextBackslash + 2;
              if (i > n) {
                this.escapePending = true;
                i = n;
              }
            } else if (nextQuote !== -1) {
              i = nextQuote + 1;
              this.inString = false;
              if (this.kind === Kind.String) end = i;
            } else i = n;
          } else if (this.kind === Kind.Container) {
            for (; i < n; i++) {
              const c = chunk.charCodeAt(i);
              if (c === QUOTE) {
                this.inString = true;
                i++;
                break;
              } else if (c === 0x7b || c === 0x5b) this.depth++;
              else if (c === 0x7d || c === 0x5d) {
                if (--this.depth === 0) {
                  end = ++i;
                  break;
                }
              }
            }
          } else {
            // A number or literal ends at the first delimiter, which is left for AfterElement.
            for (; i < n; i++) {
              const c = chunk.charCodeAt(i);
              if (c === 0x2c || c === 0x5d || isSpace(c)) {
                end = i;
                break;
              }
            }
          }
          if (end >= 0) {
            out.push(this.finish(chunk.slice(segStart, end)));
            segStart = -1;
          }
          break;
        }
        case Phase.AfterElement: {
          const c = chunk.charCodeAt(i);
          if (isSpace(c)) i++;
          else if (c === 0x2c) {
            this.phase = Phase.BeforeElement;
            this.afterComma = true;
            i++;
          } else if (c === 0x5d) {
            this.phase = Phase.Done;
            i++;
          } else throw this.syntax(i, 'expected "," or "]" after an element of the JSON list');
          break;
        }
        case Phase.Done: {
          if (isSpace(chunk.charCodeAt(i))) i++;
          else throw this.syntax(i, 'unexpected text after the end of the JSON list');
          break;
        }
      }
    }

    if (this.phase === Phase.InElement && segStart >= 0) {
      const rest = chunk.slice(segStart);
      this.partsLength += rest.length;
      if (this.partsLength > this.maxElementChars) {
        throw new SplitError('too-large', this.elementStart, `one element is larger than ${this.maxElementChars} characters`);
      }
      this.parts.push(rest);
    }
    this.offset += n;
    return out;
  }

  /** Checks that the list was closed. Throws `truncated` otherwise. */
  end(): void {
    if (this.phase !== Phase.Done) {
      throw new SplitError('truncated', this.offset, this.phase === Phase.Start ? 'no JSON list found' : 'the JSON list is not closed');
    }
  }

  private finish(last: string): SplitElement {
    let text = last;
    if (this.parts.length > 0) {
      this.parts.push(last);
      text = this.parts.join('');
      this.parts = [];
    }
    this.partsLength = 0;
    if (text.length > this.maxElementChars) {
      throw new SplitError('too-large', this.elementStart, `one element is larger than ${this.maxElementChars} characters`);
    }
    this.phase = Phase.AfterElement;
    return { text, index: this.count++, charOffset: this.elementStart };
  }

  private syntax(i: number, what: string): SplitError {
    return new SplitError('syntax', this.offset + i, what);
  }
}
