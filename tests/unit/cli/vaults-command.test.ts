import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVaultFile } from '../../../src/cli/commands/vault-file';
import type { VaultFileListing } from '../../../src/cli/commands/vaults';
import { appVault, transcript } from '../../factories/agent-vaults';
import { runCli } from '../../factories/cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-vaults-'));
  const work = await appVault(
    'Work',
    [
      transcript(['User', 'Ship on Fridays?'], ['Assistant', 'Better not.']),
      transcript(['User', 'Tabs or spaces?'], ['Assistant', 'Spaces.']),
    ],
    ['We never ship on Fridays.'],
  );
  await writeVaultFile(work, join(dir, 'engram-vault-work.engram'), null, { vectors: false });
  const unnamed = await appVault('', [transcript(['User', 'Hello there'], ['Assistant', 'Hi.'])]);
  await unnamed.settings.set('vault.name', null);
  await writeVaultFile(unnamed, join(dir, 'engram-vault.engram'), null, { vectors: false });
  await writeVaultFile(work, join(dir, 'secret.engram'), 'a passphrase for the listing', { vectors: false });
  await writeFile(join(dir, 'notes.txt'), 'not a vault');
  work.db.close();
  unnamed.db.close();
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('engram vaults', () => {
  it('lists each vault file with its name (else the file stem) and counts; an encrypted one needs its passphrase', async () => {
    const run = await runCli(['vaults', dir, '--json']);
    expect(run.code).toBe(0);
    const rows = (JSON.parse(run.out) as { vaults: VaultFileListing[] }).vaults;
    expect(rows.map((r) => r.file.split('/').pop())).toEqual(['engram-vault-work.engram', 'engram-vault.engram', 'secret.engram']);
    expect(rows[0]).toMatchObject({
      name: 'Work',
      named: true,
      encrypted: false,
      counts: { conversations: 2, messages: 4, kept: 1, inbox: 0 },
    });
    expect(rows[1]).toMatchObject({ name: 'engram-vault', named: false, counts: { conversations: 1, messages: 2 } });
    expect(rows[2]).toMatchObject({ name: 'secret', encrypted: true, counts: null });
    expect(rows[2]!.error).toContain('--passphrase-env');

    process.env.ENGRAM_LISTING_PASSPHRASE = 'a passphrase for the listing';
    const unlocked = await runCli(['vaults', dir, '--passphrase-env', 'ENGRAM_LISTING_PASSPHRASE', '--json']);
    const secret = (JSON.parse(unlocked.out) as { vaults: VaultFileListing[] }).vaults[2];
    expect(secret).toMatchObject({ name: 'Work', encrypted: true, counts: { conversations: 2, kept: 1 } });

    const text = await runCli(['vaults', dir]);
    expect(text.out.split('\n')[0]).toMatch(/^vault\s+conversations\s+messages/u);
    expect(text.out).toContain('Work');
  }, 60_000);

  it('says so when the folder cannot be read', async () => {
    const run = await runCli(['vaults', join(dir, 'missing')]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('is not a folder');
  });
});
