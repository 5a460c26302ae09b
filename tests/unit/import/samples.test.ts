/**
 * Every sample export in ../shared/data/exports parses with counts that equal an independent count:
 * numbers counted by hand from the files (written down here with how), and for ChatGPT a small
 * tree walk over the raw JSON that shares no code with the parser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import type { ParsedFile } from '../../../src/lib/core/import/parsed';
import { HAND_COUNTS } from '../../factories/sample-counts';

const SAMPLES = resolve(process.cwd(), '../shared/data/exports');
const present = existsSync(SAMPLES);
if (!present) console.warn(`[samples.test] ${SAMPLES} is missing: the sample-export tests are skipped.`);

const read = (path: string) => readFileSync(resolve(SAMPLES, path));
const parse = (path: string): Promise<ParsedFile> => parseAll(read(path), { name: path });

type Raw = Record<string, unknown>;

/** A separate walk over a raw ChatGPT conversation: path from current_node up, then classify. */
function walkChatgpt(conv: Raw) {
  const mapping = conv.mapping as Record<string, Raw>;
  const onPath = new Set<string>();
  for (let id = conv.current_node as string | null; id; id = mapping[id]?.parent as string | null) onPath.add(id);
  const counts = { visible: 0, otherBranches: 0, hidden: 0 };
  for (const id of Object.keys(mapping)) {
    const msg = mapping[id]!.message as Raw | null;
    if (!msg) continue;
    const meta = (msg.metadata ?? {}) as Raw;
    const type = (msg.content as Raw).content_type as string;
    const role = (msg.author as Raw).role;
    const hidden =
      meta.is_visually_hidden_from_conversation === true ||
      role === 'system' ||
      ['user_editable_context', 'thoughts', 'reasoning_recap'].includes(type);
    if (hidden) counts.hidden++;
    else if (onPath.has(id)) counts.visible++;
    else counts.otherBranches++;
  }
  return counts;
}

describe.skipIf(!present)('sample exports', () => {
  it.each(HAND_COUNTS)('%s parses to the hand count', async (path, expected) => {
    const { summary } = await parse(path);
    expect(summary.errors).toEqual([]);
    expect({
      format: summary.format,
      conversations: summary.conversations,
      ...summary.messages,
      skipped: summary.skipped.length,
    }).toEqual(expected);
  });

  it.each(HAND_COUNTS.filter(([p]) => p.startsWith('chatgpt/')))('%s matches a separate tree walk', async (path) => {
    const raw = JSON.parse(read(path).toString('utf8')) as unknown;
    const convs = (Array.isArray(raw) ? raw : [raw]).filter((c: Raw) => c.mapping) as Raw[];
    const expected = convs.map(walkChatgpt).reduce((a, b) => ({
      visible: a.visible + b.visible,
      otherBranches: a.otherBranches + b.otherBranches,
      hidden: a.hidden + b.hidden,
    }));
    const { summary } = await parse(path);
    expect(summary.messages).toEqual(expected);
  });

  it('refuses the Claude JSON Schema file as unknown, saying what it looked like', async () => {
    const { summary, conversations } = await parse('claude/brandtcormorant_claude-json-schema.json');
    expect(conversations).toEqual([]);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]!.code).toBe('import/unknown-format');
    expect(summary.errors[0]!.message).toMatch(/JSON Schema document \("claude-json-schema"\)/u);
  });

  it('reports the ChatGPT conversation without mapping by title, not silently', async () => {
    const { summary } = await parse('chatgpt/librechat_chatgpt-modern-export.json');
    expect(summary.skipped).toEqual([
      { what: 'conversation "Corrupted entry"', reason: expect.stringMatching(/no "mapping"/u) as unknown },
    ]);
  });

  it('keeps custom instructions hidden and reads ChatGPT float timestamps as ms', async () => {
    const { conversations } = await parse('chatgpt/librechat_chatgpt-modern-export.json');
    const ctx = conversations[0]!.messages.find((m) => m.externalId === 'ctx-node')!;
    expect(ctx).toMatchObject({ hidden: true, onVisiblePath: true, contentType: 'user_editable_context', role: 'user' });
    expect(ctx.text).toBe('User profile:\nThe user is an SRE.\n\nUser instructions:\nAnswer concisely.');
    expect(conversations[0]!.createdAt).toBe(1756000000123);
    const user1 = conversations[0]!.messages.find((m) => m.externalId === 'user-1')!;
    expect(user1.parentExternalId).toBe('ctx-node');
  });

  it('orders the ChatGPT tree: visible path root to current node, then branches depth-first', async () => {
    const { conversations } = await parse('chatgpt/librechat_chatgpt-tree.json');
    const ids = conversations[0]!.messages.map((m) => m.externalId.slice(0, 4));
    expect(ids).toEqual(['d386', 'aaa2', 'bda8', 'aaa2', 'db88', 'aaa2', 'f63b', 'aaa2', '23af', 'aaa2', 'ada9', 'd0d2']);
    const first = conversations[0]!.messages[0]!;
    expect(first).toMatchObject({ role: 'system', hidden: true, parentExternalId: null });
    expect(conversations[0]!.notes.join(' ')).toMatch(/still being written/u);
  });

  it('reads DeepSeek fragments: REQUEST is the person, THINK is hidden reasoning, ISO offsets are honoured', async () => {
    const { conversations } = await parse('deepseek/andrmkrff_sample_conversation.json');
    const c = conversations[0]!;
    expect(c.externalId).toBe('sample_123');
    expect(c.messages.filter((m) => m.onVisiblePath).map((m) => `${m.externalId}:${m.role}:${m.hidden}`)).toEqual([
      '3:user:false',
      '4:think:assistant:true',
      '4:assistant:false',
      '5:user:false',
    ]);
    expect(c.messages[0]!.createdAt).toBe(Date.UTC(2024, 11, 31, 7, 45, 20));
  });

  it('reads Open WebUI reasoning and tool calls from the structured output', async () => {
    const { conversations } = await parse('openwebui/librechat_openwebui-export.json');
    const reasoning = conversations[0]!.messages;
    expect(reasoning.map((m) => [m.externalId, m.hidden, m.text])).toEqual([
      ['ra1', false, 'What is 15 * 17?'],
      ['ra2:reasoning', true, '15 * 17 = 15 * 10 + 15 * 7 = 150 + 105 = 255'],
      ['ra2', false, '255'],
    ]);
    expect(conversations[1]!.messages[1]!.text).toBe(
      '[tool call: get_weather({"city":"Paris"})]\n\n[tool result]\nParis: 18C, rain\n\nThe weather in Paris is 18C with rain.',
    );
  });

  it('turns Gemini activity HTML into text and keeps attachments and sources', async () => {
    const { conversations } = await parse('gemini/SYNTHETIC_gemini_myactivity_example.json');
    expect(conversations[0]!.messages[1]!.text).toBe('Here are a few ideas:\n\n- **Boxer**\n- **Ash**\n- **Cardboard Kevin**');
    expect(conversations[1]!.messages[0]!.text).toBe('Summarize the attached lease and list the renewal dates\n[file: lease-2025.pdf]');
    expect(conversations[1]!.messages[1]!.text).toMatch(/Sources:\n- Example citation: https:\/\/example\.com\/tenancy-rules$/u);
    expect(conversations[2]!.title).toBe('Як приготувати борщ?');
  });

  it('gives every sample conversation stable ids: parsing twice yields the same ids', async () => {
    for (const [path] of HAND_COUNTS) {
      const a = await parse(path);
      const b = await parse(path);
      const ids = (f: ParsedFile) => f.conversations.map((c) => [c.externalId, c.messages.map((m) => m.externalId)]);
      expect(ids(a)).toEqual(ids(b));
      for (const c of a.conversations) expect(new Set(c.messages.map((m) => m.externalId)).size).toBe(c.messages.length);
    }
  });
});
