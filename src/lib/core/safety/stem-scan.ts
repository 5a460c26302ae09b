/**
 * Every stem (a plain substring) that occurs in a text, found in one pass: an Aho-Corasick automaton
 * over the stems' characters. Injection detection (injection.ts) and redaction's prefilter
 * (secret-prefilter.ts) run this on every message an import writes, so it sets much of an import's
 * pace.
 *
 * The scan reads the text as it would read it folded: a run of white space other than a newline
 * counts as one space. So a lower-cased text can be scanned before it is folded, and a text found
 * clean is never folded at all.
 *
 * Measured before choosing (the stems of injection-patterns.ts, the 70,430 message texts of a fifth
 * of the generated 300 MB archive, 27.6 M characters, folded; Node 20, medians of three):
 * modern-ahocorasick 29.0 s (it matches whole grapheme clusters; its `/fast` backend 36.4 s),
 * @monyone/aho-corasick 0.64 s, one regex alternation of the stems 0.58 s, this automaton 0.18 s.
 * All four found the same stems in every text of a 3,000-text sample. Stepping by row offsets with
 * an end-of-stem bit (below) then took the scan from about 6 to about 4.5 ns per character, in Node
 * and in Chromium alike (a twentieth of the archive, 7.0 M characters).
 */

let spaces: number[] | null = null;

/** Characters that fold to one space: JavaScript's `\s`, less the newline (found once, on first use). */
function spaceCodes(): number[] {
  if (spaces) return spaces;
  spaces = [];
  for (let c = 0; c < 65536; c++) if (c !== 10 && /\s/u.test(String.fromCharCode(c))) spaces.push(c);
  return spaces;
}

export interface StemScanner {
  readonly stems: readonly string[];
  /**
   * The stems in `text`, by index into `stems`, each at most once. With `acrossLines`, a newline
   * reads as white space too, so a stem split over two lines is found (as it is once they are joined).
   */
  scan(text: string, into?: Set<number>, acrossLines?: boolean): Set<number>;
  /**
   * The stems of each line of `text` (lines split at '\n'), `into[line]` per line; `into` must hold
   * a set for every line.
   */
  scanLines(text: string, into: readonly Set<number>[]): void;
}

export function stemScanner(stems: readonly string[]): StemScanner {
  if (stems.some((s) => s === '' || s.includes('\n'))) throw new Error('stemScanner: a stem must be non-empty and hold no newline');
  // Symbols: 0 for any character no stem holds, then one per distinct stem character.
  const symbol = new Uint16Array(65536);
  let symbols = 1;
  for (const stem of stems) {
    for (let i = 0; i < stem.length; i++) {
      const c = stem.charCodeAt(i);
      if (symbol[c] === 0) symbol[c] = symbols++;
    }
  }
  const space = symbol[32]!;
  // The trie, then the failure links breadth first, folded into one transition table.
  const children: Map<number, number>[] = [new Map()];
  const ends: number[][] = [[]];
  stems.forEach((stem, index) => {
    let state = 0;
    for (let i = 0; i < stem.length; i++) {
      const a = symbol[stem.charCodeAt(i)]!;
      let next = children[state]!.get(a);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        ends.push([]);
        children[state]!.set(a, next);
      }
      state = next;
    }
    ends[state]!.push(index);
  });
  const states = children.length;
  const delta = new Int32Array(states * symbols);
  const fail = new Int32Array(states);
  const queue: number[] = [];
  for (const [a, next] of children[0]!) {
    delta[a] = next;
    queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    ends[state] = [...ends[state]!, ...ends[fail[state]!]!];
    for (let a = 1; a < symbols; a++) {
      const next = children[state]!.get(a);
      if (next === undefined) {
        delta[state * symbols + a] = delta[fail[state]! * symbols + a]!;
      } else {
        fail[next] = delta[fail[state]! * symbols + a]!;
        delta[state * symbols + a] = next;
        queue.push(next);
      }
    }
  }
  const output: (readonly number[] | null)[] = ends.map((e) => (e.length > 0 ? e : null));
  // The table the scan walks: a state is its row's offset (the state times an even stride), its
  // low bit set when stems end there, so a step is one load and no multiply.
  const stride = symbols + (symbols % 2);
  const step = new Int32Array(states * stride);
  for (let state = 0; state < states; state++) {
    for (let a = 0; a < symbols; a++) {
      const next = delta[state * symbols + a]!;
      step[state * stride + a] = next * stride + (output[next] ? 1 : 0);
    }
  }
  // Symbols as the scan reads them: white space other than a newline is the space symbol (a run
  // of it is read once), and with `acrossLines` a newline is too.
  const spaceSymbol = symbols; // never a row index: tested before the table is read
  const within = Uint16Array.from(symbol);
  for (const c of spaceCodes()) within[c] = spaceSymbol;
  const across = Uint16Array.from(within);
  across[10] = spaceSymbol;

  /**
   * Runs the automaton over `text`, adding every stem that ends to `into`; at a newline, to
   * `onNewline()`'s set from then on.
   */
  function run(text: string, into: Set<number>, onNewline: (() => Set<number>) | null, acrossLines: boolean): void {
    const table = acrossLines ? across : within;
    let state = 0;
    let inSpace = false;
    let set = into;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let a = table[c]!;
      if (a === spaceSymbol) {
        if (inSpace) continue;
        inSpace = true;
        a = space;
      } else {
        inSpace = false;
        if (c === 10 && onNewline) set = onNewline();
      }
      const next = step[state + a]!;
      state = next & ~1;
      if (next & 1) for (const k of output[state / stride]!) set.add(k);
    }
  }

  return {
    stems,
    scan(text, into = new Set(), acrossLines = false) {
      run(text, into, null, acrossLines);
      return into;
    },
    scanLines(text, into) {
      let line = 0;
      run(text, into[0]!, () => into[++line]!, false);
    },
  };
}
