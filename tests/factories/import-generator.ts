/**
 * A generator of ChatGPT-shaped exports for tests and the import benchmark: a JSON list of
 * conversations with `mapping` trees (root node, a hidden system node, sometimes custom
 * instructions, user/assistant turns, regenerations and edits as branches, code, images with null
 * parts, thoughts), deterministic for a seed. It counts what it generates while it generates, so a
 * test compares the parser with numbers that never went through the parser.
 *
 * Bytes come out in chunks; the whole export never has to exist as one string.
 */

import { seededRng } from './rng';

export { seededRng };

export interface GeneratorOptions {
  conversations: number;
  /** Approximate size of the whole export; message lengths are scaled to reach it. */
  targetBytes: number;
  seed?: number;
  /** Probability that an assistant turn has a regenerated sibling branch. */
  branchRate?: number;
  /** Write non-ASCII as `\uXXXX` (Python's `ensure_ascii`), as some exporters do. */
  asciiEscape?: boolean;
  /** Size of the emitted byte chunks. */
  chunkBytes?: number;
  /** Turns per conversation, inclusive range (default 2-9). */
  turns?: readonly [number, number];
  /** Conversations start evenly over this many seconds from 2023-11-14 (default: one an hour). */
  spanSeconds?: number;
  /**
   * Probability that an assistant answer is long and code-heavy: Markdown prose around fenced
   * blocks of TypeScript, Python, SQL or shell, tens to a couple of hundred lines (default 0).
   */
  longCodeRate?: number;
}

/**
 * The heavy archive (issue 19): 10,000 conversations over five years, about 300,000 messages on the
 * visible threads, about 300 MB, with long code-heavy answers mixed in. Same family as the 100 MB
 * bench export (same tree shapes, branches, hidden parts), with longer conversations.
 */
export const HEAVY_ARCHIVE: GeneratorOptions = {
  conversations: 10_000,
  targetBytes: 300_000_000,
  seed: 19,
  turns: [5, 25],
  spanSeconds: 5 * 365 * 86_400,
  longCodeRate: 0.06,
};

export interface GeneratedCounts {
  conversations: number;
  /** Messages on the visible thread that are not hidden. */
  visible: number;
  /** Non-hidden messages off the visible thread. */
  otherBranches: number;
  hidden: number;
  bytes: number;
}

const WORDS = (
  'the a of to and in is it that for on with as this be are was by at from or an not but have which one ' +
  'garden maple prune soil water light index query vector cluster deploy rollback chart schema tenant ' +
  'memory budget token recall precision branch export import stream chunk parser [bracket] {brace} ' +
  '"quoted" back\\slash tab\tend naïve café Σύνταξη 日本庭園 emoji🙂 proto,comma'
).split(' ');

const CODE_LINES: Record<string, string[]> = {
  ts: [
    'export async function load(id: string): Promise<Row | null> {',
    '  const row = await db.rows.get(id);',
    '  if (!row) throw new Error(`missing ${id}`);',
    '  return { ...row, seen: Date.now() };',
    '}',
    'const index = new Map<string, number[]>();',
    'for (const [key, value] of Object.entries(config)) index.set(key, [value.length]);',
    'type Result = { ok: true; value: T } | { ok: false; error: string };',
  ],
  python: [
    'def prune(tree, depth=0):',
    '    """Return the branches deeper than depth."""',
    '    for child in tree.children:',
    '        yield from prune(child, depth + 1)',
    '    print(f"{tree.name}\\t{depth}")',
    'rows = [r for r in cursor.fetchall() if r["score"] > 0.5]',
    "with open('export.json', encoding='utf-8') as f:",
  ],
  sql: [
    'SELECT tenant_id, count(*) AS n',
    "FROM events WHERE created_at > now() - interval '30 days'",
    'GROUP BY tenant_id HAVING count(*) > 10',
    'CREATE INDEX idx_events_tenant ON events (tenant_id, created_at);',
  ],
  sh: [
    'set -euo pipefail',
    'for f in *.json; do jq \'.mapping | length\' "$f"; done',
    'git rebase -i HEAD~3 && git push --force-with-lease',
  ],
};
const LANGUAGES = Object.keys(CODE_LINES);

/** A long Markdown answer: headings and prose around one to four fenced code blocks. */
function longCodeAnswer(rng: () => number): string {
  const parts: string[] = [`## ${words(rng, 4).replace(/\n/gu, ' ')}`, words(rng, 30 + Math.floor(rng() * 60))];
  const blocks = 1 + Math.floor(rng() * 4);
  for (let b = 0; b < blocks; b++) {
    const language = LANGUAGES[Math.floor(rng() * LANGUAGES.length)]!;
    const lines = CODE_LINES[language]!;
    const body: string[] = [];
    const n = 10 + Math.floor(rng() * 50);
    for (let i = 0; i < n; i++) body.push(`${'  '.repeat(Math.floor(rng() * 3))}${lines[Math.floor(rng() * lines.length)]!}`);
    parts.push(`\`\`\`${language}\n${body.join('\n')}\n\`\`\``, `- ${words(rng, 12)}\n- ${words(rng, 10)}`);
  }
  return parts.join('\n\n');
}

function words(rng: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(WORDS[Math.floor(rng() * WORDS.length)]!);
    if (rng() < 0.06) out.push('\n\n');
  }
  return out.join(' ');
}

interface Node {
  id: string;
  message: Record<string, unknown> | null;
  parent: string | null;
  children: string[];
}

type Bucket = 'visible' | 'otherBranches' | 'hidden';

function message(id: string, role: string, content: Record<string, unknown>, time: number, metadata: Record<string, unknown> = {}) {
  return {
    id,
    author: { role, name: null, metadata: {} },
    create_time: time,
    update_time: null,
    content,
    status: 'finished_successfully',
    weight: 1,
    metadata,
    recipient: 'all',
  };
}

/** One conversation and the bucket of each of its messages, counted independently of any parser. */
export function generateConversation(
  rng: () => number,
  index: number,
  wordsPerMessage: number,
  branchRate: number,
  shape: ConversationShape = DEFAULT_SHAPE,
) {
  const nodes: Node[] = [];
  const buckets: Bucket[] = [];
  const start = 1_700_000_000 + Math.floor(index * shape.secondsApart);
  let t = start;
  const id = (k: number) => `c${index}-n${k}`;
  const add = (parent: Node | null, msg: Record<string, unknown> | null, bucket: Bucket | null): Node => {
    const node: Node = {
      id: id(nodes.length),
      message: msg ? { ...msg, id: id(nodes.length) } : null,
      parent: parent?.id ?? null,
      children: [],
    };
    parent?.children.push(node.id);
    nodes.push(node);
    if (bucket) buckets.push(bucket);
    return node;
  };
  const text = (n: number) => ({ content_type: 'text', parts: [words(rng, n)] });
  const root = add(null, null, null);
  let tip = add(
    root,
    message('', 'system', { content_type: 'text', parts: [''] }, t, { is_visually_hidden_from_conversation: true }),
    'hidden',
  );
  if (rng() < 0.3) {
    tip = add(
      tip,
      message('', 'user', { content_type: 'user_editable_context', user_profile: words(rng, 20), user_instructions: words(rng, 20) }, t),
      'hidden',
    );
  }
  const [fewest, most] = shape.turns;
  const turns = fewest + Math.floor(rng() * (most - fewest + 1));
  for (let turn = 0; turn < turns; turn++) {
    const n = Math.max(5, Math.round(wordsPerMessage * (0.3 + rng() * 1.4)));
    const userContent =
      rng() < 0.1
        ? {
            content_type: 'multimodal_text',
            parts: [{ content_type: 'image_asset_pointer', asset_pointer: `file-service://file-${index}-${turn}` }, null, words(rng, n)],
          }
        : text(n);
    const user = add(tip, message('', 'user', userContent, (t += 30)), 'visible');
    if (rng() < 0.15)
      add(
        user,
        message('', 'assistant', { content_type: 'thoughts', thoughts: [{ summary: 'Thinking', content: words(rng, 30) }] }, (t += 2)),
        'hidden',
      );
    // Code sometimes says "constructor", which sends that conversation down the reviver path.
    const code = rng() < 0.2 ? `class Box:\n    def __init__(self):  # constructor\n        pass` : `print("${words(rng, 8)}")`;
    const answer =
      rng() < 0.15
        ? { content_type: 'code', language: 'python', text: code }
        : shape.longCodeRate > 0 && rng() < shape.longCodeRate
          ? { content_type: 'text', parts: [longCodeAnswer(rng)] }
          : text(n);
    // Branches hang off the user turn (regeneration) or its parent (an edit of the question).
    if (rng() < branchRate) add(user, message('', 'assistant', text(Math.ceil(n / 2)), (t += 5)), 'otherBranches');
    if (rng() < branchRate / 2) {
      const edited = add(tip, message('', 'user', text(Math.ceil(n / 3)), (t += 5)), 'otherBranches');
      add(edited, message('', 'assistant', text(Math.ceil(n / 3)), (t += 5)), 'otherBranches');
    }
    tip = add(user, message('', 'assistant', answer, (t += 30)), 'visible');
  }
  const mapping: Record<string, unknown> = {};
  for (const node of nodes) mapping[node.id] = node;
  const conversation = {
    title: `Conversation ${index}: ${words(rng, 4).replace(/\n/gu, ' ')}`,
    create_time: start,
    update_time: t,
    mapping,
    current_node: tip.id,
    conversation_id: `conv-${index}`,
    id: `conv-${index}`,
  };
  const counts = { visible: 0, otherBranches: 0, hidden: 0 };
  for (const b of buckets) counts[b]++;
  return { conversation, counts };
}

/** How conversations vary beyond their size: the defaults are the 100 MB bench's shapes. */
export interface ConversationShape {
  turns: readonly [number, number];
  secondsApart: number;
  longCodeRate: number;
}
const DEFAULT_SHAPE: ConversationShape = { turns: [2, 9], secondsApart: 3600, longCodeRate: 0 };

/** Average length of a long code answer in bytes of JSON, measured on the generator's output. */
const LONG_CODE_BYTES = 2_600;

function escapeNonAscii(json: string): string {
  // Astral characters (emoji) become two escapes, one per UTF-16 unit, as Python writes them.
  return json.replace(/[^\n -~]/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/**
 * Words per message for a size goal when the turn range is given: per turn about 2.2 messages'
 * worth of words (user, answer, shorter branches) at ~7 bytes a word, ~2.6 nodes of ~350 bytes
 * of JSON overhead, and the long code answers' share.
 */
function wordsFor(perConversation: number, shape: ConversationShape): number {
  const turns = (shape.turns[0] + shape.turns[1]) / 2;
  const overhead = 800 + turns * (2.6 * 350 + shape.longCodeRate * LONG_CODE_BYTES);
  return Math.max(5, Math.round((perConversation - overhead) / (turns * 2.2 * 7)));
}

/**
 * The export as byte chunks. `counts` is filled in while the chunks are consumed and is complete
 * once the iteration ends.
 */
export function chatgptExport(opts: GeneratorOptions): { chunks: Iterable<Uint8Array>; counts: GeneratedCounts } {
  const counts: GeneratedCounts = { conversations: 0, visible: 0, otherBranches: 0, hidden: 0, bytes: 0 };
  const rng = seededRng(opts.seed ?? 1);
  // Calibrated on the output: about 15 messages per conversation (branches and thoughts shorter),
  // ~7 bytes per word, ~350 bytes of node overhead each.
  const perConversation = opts.targetBytes / opts.conversations;
  const shape: ConversationShape = {
    turns: opts.turns ?? DEFAULT_SHAPE.turns,
    secondsApart: opts.spanSeconds ? opts.spanSeconds / opts.conversations : DEFAULT_SHAPE.secondsApart,
    longCodeRate: opts.longCodeRate ?? 0,
  };
  const wordsPerMessage = opts.turns ? wordsFor(perConversation, shape) : Math.max(5, Math.round((perConversation / 10.8 - 350) / 7));
  const chunkBytes = opts.chunkBytes ?? 1024 * 1024;
  const encoder = new TextEncoder();
  function* chunks(): Generator<Uint8Array> {
    let buffer = '[';
    for (let i = 0; i < opts.conversations; i++) {
      const { conversation, counts: c } = generateConversation(rng, i, wordsPerMessage, opts.branchRate ?? 0.2, shape);
      let json = JSON.stringify(conversation, null, i % 7 === 0 ? 1 : undefined);
      if (opts.asciiEscape) json = escapeNonAscii(json);
      buffer += (i === 0 ? '\n' : ',\n') + json;
      counts.conversations++;
      counts.visible += c.visible;
      counts.otherBranches += c.otherBranches;
      counts.hidden += c.hidden;
      if (buffer.length >= chunkBytes) {
        // Cut by bytes, not characters: chunk borders fall inside multi-byte characters, as they
        // do when a browser reads a File.
        const bytes = encoder.encode(buffer);
        buffer = '';
        counts.bytes += bytes.length;
        for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
      }
    }
    const last = encoder.encode(`${buffer}\n]\n`);
    counts.bytes += last.length;
    yield last;
  }
  return { chunks: chunks(), counts };
}
