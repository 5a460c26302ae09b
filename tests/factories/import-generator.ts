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
}

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
export function generateConversation(rng: () => number, index: number, wordsPerMessage: number, branchRate: number) {
  const nodes: Node[] = [];
  const buckets: Bucket[] = [];
  let t = 1_700_000_000 + index * 3600;
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
  const turns = 2 + Math.floor(rng() * 8);
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
    const answer = rng() < 0.15 ? { content_type: 'code', language: 'python', text: code } : text(n);
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
    create_time: 1_700_000_000 + index * 3600,
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

function escapeNonAscii(json: string): string {
  // Astral characters (emoji) become two escapes, one per UTF-16 unit, as Python writes them.
  return json.replace(/[^\n -~]/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
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
  const wordsPerMessage = Math.max(5, Math.round((perConversation / 10.8 - 350) / 7));
  const chunkBytes = opts.chunkBytes ?? 1024 * 1024;
  const encoder = new TextEncoder();
  function* chunks(): Generator<Uint8Array> {
    let buffer = '[';
    for (let i = 0; i < opts.conversations; i++) {
      const { conversation, counts: c } = generateConversation(rng, i, wordsPerMessage, opts.branchRate ?? 0.2);
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
