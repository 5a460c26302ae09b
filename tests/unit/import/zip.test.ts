/** ZIP exports: shards, entries not read, unsafe names, bombs, other archive types. ZIPs are built here with fflate. */
import { gzipSync, strToU8, Zip, ZipDeflate, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseAll, type ByteSource, type ParseOptions } from '../../../src/lib/core/import/parse-stream';
import { isUnsafeEntryName } from '../../../src/lib/core/import/zip';
import { chatgptConversation } from '../../factories/import-fixtures';

const convJson = (...ids: string[]) =>
  strToU8(
    JSON.stringify(
      ids.map((id) =>
        chatgptConversation(
          [
            { id: `${id}-u`, parent: null },
            { id: `${id}-a`, parent: `${id}-u`, role: 'assistant' },
          ],
          `${id}-a`,
          { id, title: id },
        ),
      ),
    ),
  );

const zip = (files: Zippable) => zipSync(files, { level: 6 });
const parseZip = (bytes: ByteSource, options: ParseOptions = {}) => parseAll(bytes, { name: 'export.zip', ...options });

/** The same bytes as a web stream of small chunks, so no whole-buffer shortcut is taken. */
function stream(bytes: Uint8Array, size = 997): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

describe('ChatGPT ZIP exports', () => {
  it('reads conversations.json and nothing else, whatever else the archive holds', async () => {
    const bytes = zip({
      'conversations.json': convJson('c1', 'c2'),
      'chat.html': strToU8('<html>c1 c2 again</html>'),
      'user.json': strToU8('{"id":"user-1","email":"a@b.c"}'),
      'file-abc.png': new Uint8Array(5000),
      'dalle-generations': { 'img.webp': new Uint8Array(10) },
    });
    for (const input of [bytes, stream(bytes)]) {
      const { summary, conversations } = await parseZip(input);
      expect(summary).toMatchObject({
        archive: 'zip',
        format: 'chatgpt',
        conversations: 2,
        messages: { visible: 4, otherBranches: 0, hidden: 0 },
        errors: [],
      });
      expect(conversations.map((c) => c.externalId)).toEqual(['c1', 'c2']);
      expect(summary.skipped).toEqual([
        { kind: 'entry', what: 'archive entry "user.json"', reason: expect.stringMatching(/not a chat export we know/u) as unknown },
      ]);
      expect(summary.notes).toEqual([
        '3 other archive entries were not read (images, attachments, HTML pages)',
        'chat.html was not read: it repeats the conversations of the JSON files',
      ]);
    }
  });

  it('reads every shard once, even out of order, and skips a conversation repeated across shards', async () => {
    const bytes = zip({
      'conversations-001.json': convJson('c3', 'c4'),
      'conversations-000.json': convJson('c1', 'c2'),
      'conversations-002.json': convJson('c5', 'c1'),
      'chat.html': strToU8('<html></html>'),
    });
    const { summary, conversations } = await parseZip(stream(bytes));
    expect(summary.errors).toEqual([]);
    expect(conversations.map((c) => c.externalId)).toEqual(['c3', 'c4', 'c1', 'c2', 'c5']);
    expect(summary.entries.map((e) => [e.name, e.conversations])).toEqual([
      ['conversations-001.json', 2],
      ['conversations-000.json', 2],
      ['conversations-002.json', 1],
    ]);
    expect(summary.skipped).toEqual([
      { what: 'conversation "c1"', reason: 'it repeats a conversation already read from "conversations-000.json" in export.zip' },
    ]);
    expect(summary.notes[0]).toBe('3 conversation shards read');
  });

  it('reads stored (uncompressed) entries and streamed archives with data descriptors', async () => {
    const stored = zipSync({ 'conversations.json': [convJson('s1'), { level: 0 }] });
    expect((await parseZip(stored)).summary).toMatchObject({ conversations: 1, errors: [] });

    const parts: Uint8Array[] = [];
    const streamed = new Zip((err, chunk) => {
      if (err) throw err;
      parts.push(chunk);
    });
    const entry = new ZipDeflate('conversations.json', { level: 6 });
    streamed.add(entry);
    entry.push(convJson('d1', 'd2'), true);
    streamed.end();
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
    expect((await parseZip(stream(bytes, 13))).summary).toMatchObject({ conversations: 2, errors: [] });
  });

  it('reads other exports delivered as ZIPs, by content', async () => {
    const claude = strToU8(JSON.stringify([{ uuid: 'k1', name: 'K', chat_messages: [{ uuid: 'm', sender: 'human', text: 'hi' }] }]));
    const { summary } = await parseZip(zip({ 'data-2024/conversations.json': claude, 'data-2024/users.json': strToU8('[{"uuid":"u"}]') }));
    expect(summary).toMatchObject({ format: 'claude', conversations: 1, errors: [] });
  });

  it('fails the archive when a chat entry is broken, but only skips a broken side file', async () => {
    const cut = convJson('c9').slice(0, 60);
    const broken = await parseZip(zip({ 'conversations-000.json': convJson('c1'), 'conversations-001.json': cut }));
    expect(broken.summary.errors.map((e) => e.code)).toEqual(['import/truncated']);
    expect(broken.summary.errors[0]!.message).toMatch(/"conversations-001.json" in export.zip ends early/u);
    const side = await parseZip(zip({ 'conversations.json': convJson('c1'), 'message_feedback.json': strToU8('{"broken": ') }));
    expect(side.summary.errors).toEqual([]);
    expect(side.summary.skipped[0]!.what).toBe('archive entry "message_feedback.json"');
  });

  it('says what a ZIP without any chat export holds, and calls an empty ZIP empty', async () => {
    expect((await parseZip(zip({ 'photo.jpg': new Uint8Array(10) }))).summary.errors[0]).toMatchObject({
      code: 'import/unknown-format',
      message: expect.stringMatching(/no JSON files \(1 other entry\)/u) as unknown,
    });
    expect((await parseZip(zip({ 'settings.json': strToU8('{"a":1}') }))).summary.errors[0]!.code).toBe('import/unknown-format');
    expect((await parseZip(zip({}))).summary.errors[0]!.code).toBe('import/empty');
  });

  it('calls a cut-off archive truncated', async () => {
    const bytes = zip({ 'conversations.json': convJson('a', 'b', 'c') });
    const { summary } = await parseZip(bytes.slice(0, Math.floor(bytes.length / 2)));
    expect(summary.errors.map((e) => e.code)).toEqual(['import/truncated']);
  });
});

describe('unsafe archives', () => {
  it.each([
    '../evil.json',
    'a/../../evil.json',
    '..\\evil.json',
    '/etc/evil.json',
    '\\evil.json',
    'C:\\evil.json',
    'c:evil.json',
    'a/b/..',
  ])('treats %j as unsafe', (name) => {
    expect(isUnsafeEntryName(name)).toBe(true);
  });

  it.each(['conversations.json', 'a/b/c.json', '..json', 'a..b/c.json', 'dir/.../x'])('treats %j as safe', (name) => {
    expect(isUnsafeEntryName(name)).toBe(false);
  });

  it.each(['../conversations.json', '/abs/file.png', 'C:\\Windows\\x.json', 'sub/..\\..\\x.txt'])(
    'refuses the whole archive when an entry is named %j (in memory and streamed)',
    async (name) => {
      const bytes = zip({ 'conversations.json': convJson('c1'), [name]: strToU8('[]') });
      for (const input of [bytes, stream(bytes)]) {
        const { summary } = await parseZip(input);
        expect(summary.errors.map((e) => e.code)).toEqual(['import/unsafe-archive']);
        expect(summary.errors[0]!.message).toContain(name);
      }
    },
  );
});

describe('zip bombs and limits', () => {
  it('refuses an archive that inflates past the byte limit, counting real bytes', async () => {
    const bytes = zip({ 'conversations.json': new Uint8Array(3_000_000).fill(0x20) });
    const { summary } = await parseZip(stream(bytes), { limits: { maxInflatedBytes: 1_000_000 } });
    expect(summary.errors).toEqual([
      expect.objectContaining({ code: 'import/too-large', detail: expect.objectContaining({ reason: 'inflated-bytes' }) as unknown }),
    ]);
  });

  it('refuses a highly compressed entry as a bomb with the default limits', async () => {
    const bomb = new Uint8Array(40 * 1024 * 1024).fill(0x20);
    bomb[0] = 0x5b;
    const { summary } = await parseZip(zip({ 'conversations.json': bomb }));
    expect(summary.errors).toEqual([
      expect.objectContaining({ code: 'import/too-large', detail: expect.objectContaining({ reason: 'compression-ratio' }) as unknown }),
    ]);
    expect(summary.errors[0]!.message).toMatch(/zip bomb/u);
  });

  it('never inflates entries it does not read, so a bomb among the images costs nothing', async () => {
    const bytes = zip({ 'conversations.json': convJson('c1'), 'image.png': new Uint8Array(40 * 1024 * 1024) });
    const { summary } = await parseZip(stream(bytes, 64 * 1024));
    expect(summary).toMatchObject({ conversations: 1, errors: [] });
  });

  it('refuses more entries than the limit', async () => {
    const files: Zippable = {};
    for (let i = 0; i < 30; i++) files[`img-${i}.png`] = new Uint8Array(1);
    for (const input of [zip(files), stream(zip(files))]) {
      const { summary } = await parseZip(input, { limits: { maxEntries: 20 } });
      expect(summary.errors).toEqual([
        expect.objectContaining({ code: 'import/too-large', detail: expect.objectContaining({ reason: 'entry-count' }) as unknown }),
      ]);
    }
  });
});

describe('other archive types', () => {
  it.each([
    ['gzip', gzipSync(convJson('c1')), /gzip archive/u],
    ['RAR', new Uint8Array([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00, 1, 2, 3]), /RAR archive/u],
    ['7-Zip', new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4, 1, 2]), /7-Zip archive/u],
  ])('refuses %s by its magic bytes, whatever the file is called', async (_label, bytes, message) => {
    const { summary } = await parseAll(bytes, { name: 'conversations.json' });
    expect(summary.errors).toEqual([
      expect.objectContaining({ code: 'import/unsupported-archive', message: expect.stringMatching(message) as unknown }),
    ]);
  });
});
