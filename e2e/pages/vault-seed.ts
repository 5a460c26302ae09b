/**
 * Builds a small vault file for the e2e journeys, through the app's own code paths in Node (the
 * CLI's): conversations go through the import session (staged, then published), notes through the
 * notes repository, a deletion through deleteRecords, and the file is written by the CLI's
 * `writeVaultFile`. Run: `npx tsx e2e/pages/vault-seed.ts <out.engram> <a|b>`.
 */
import '../../src/cli/node-env';
import { contentHash } from '../../src/lib/core/text/normalize';
import { derivedRecordId } from '../../src/lib/core/ids';
import type { NoteRecord } from '../../src/lib/core/records';
import { ImportSession, type IncomingConversation } from '../../src/lib/store/import-session';
import type { Vault } from '../../src/lib/store/vault';
import { withVaultFile, writeVaultFile } from '../../src/cli/commands/vault-file';
import { SEED_TEXT } from './vault-seed-text';

async function conversation(externalId: string, title: string, texts: string[]): Promise<IncomingConversation> {
  const messages = await Promise.all(
    texts.map(async (text, i) => ({
      externalId: `${externalId}-m${i}`,
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      text,
      contentHash: await contentHash(text),
      createdAt: 1_700_000_000_000 + i,
      parentExternalId: i ? `${externalId}-m${i - 1}` : null,
      onVisiblePath: true,
      hidden: false,
      flags: [],
    })),
  );
  return { source: 'chatgpt', externalId, title, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_100_000, messages };
}

async function addNote(vault: Vault, id: string, text: string, conversationId: string): Promise<void> {
  const note: NoteRecord = {
    id,
    text,
    category: 'Decisions',
    status: 'kept',
    tier: 'engram',
    confidence: 0.9,
    sourceMessageIds: [],
    conversationId,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    keptAt: 1_700_000_000_000,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: await contentHash(text),
    flags: [],
    hlc: '',
  };
  await vault.notes.save(note, { actor: 'user', action: 'keep', why: 'seeded for e2e', at: 1_700_000_000_000 });
}

export async function seedVault(vault: Vault, variant: 'a' | 'b'): Promise<void> {
  const own = SEED_TEXT[variant];
  const session = new ImportSession(vault.db, `imp_${variant}/0`, () => vault.clock.stamp());
  await session.add([
    await conversation(`conv-${variant}`, own.title, [own.title, own.note, own.extra]),
    await conversation('conv-shared', SEED_TEXT.shared.title, [SEED_TEXT.shared.title, SEED_TEXT.shared.note]),
  ]);
  await session.publish();
  await addNote(vault, `note-${variant}`, own.note, await derivedRecordId('conv', 'chatgpt', `conv-${variant}`));
  await addNote(vault, 'note-shared', SEED_TEXT.shared.note, await derivedRecordId('conv', 'chatgpt', 'conv-shared'));
  await addNote(
    vault,
    `note-${variant}-gone`,
    'A note deleted before export.',
    await derivedRecordId('conv', 'chatgpt', `conv-${variant}`),
  );
  await vault.deleteRecords('notes', [`note-${variant}-gone`]);
}

const [out, variant] = process.argv.slice(2);
if (out && (variant === 'a' || variant === 'b')) {
  await withVaultFile(null, null, async (vault) => {
    await seedVault(vault, variant);
    const written = await writeVaultFile(vault, out, null);
    process.stdout.write(`${JSON.stringify(written)}\n`);
  });
}
