import { fail } from '../errors';
import type { VaultExportMeta, VaultManifest } from './format';
import { readVault, type ReadVaultOptions } from './reader';
import { emptyVaultState, type VaultState } from './sections';
import { writeVault, type VaultSections, type WriteVaultOptions } from './writer';

/**
 * In-memory adapters around the streaming writer and reader, for vaults that fit in memory
 * (tests, the CLI, merging two small files). The browser importer streams instead.
 */

/** The sections of an in-memory state, ready for `writeVault`. Vectors are written when asked. */
export function sectionsOf(state: VaultState, options: { vectors: boolean }): VaultSections {
  const source = <T>(records: T[]) => ({ count: records.length, records });
  const sections: VaultSections = {
    conversations: source(state.conversations),
    messages: source(state.messages),
    notes: source(state.notes),
    chunks: source(state.chunks),
    history: source(state.history),
    imports: source(state.imports),
    settings: source(state.settings),
    tombstones: source(state.tombstones),
  };
  if (options.vectors) sections.vectors = source(state.vectors);
  return sections;
}

export function writeVaultState(
  meta: VaultExportMeta,
  state: VaultState,
  options: WriteVaultOptions & { vectors?: boolean } = {},
): ReadableStream<Uint8Array> {
  return writeVault(meta, sectionsOf(state, { vectors: options.vectors ?? true }), options);
}

/**
 * Reads a whole file into memory, staging every record and returning only once the file has been
 * read to its verified end: a damaged, truncated or tampered file returns nothing but the error.
 */
export async function readVaultState(
  stream: ReadableStream<Uint8Array>,
  options: ReadVaultOptions = {},
): Promise<{ manifest: VaultManifest; encrypted: boolean; state: VaultState }> {
  const staged = emptyVaultState();
  let manifest: VaultManifest | null = null;
  let encrypted = false;
  for await (const event of readVault(stream, options)) {
    switch (event.kind) {
      case 'manifest':
        manifest = event.manifest;
        encrypted = event.encrypted;
        break;
      case 'records':
        for (const record of event.records) (staged[event.section] as unknown[]).push(record);
        break;
      case 'end':
        if (!manifest) fail('vault/corrupt', 'The file has no manifest.');
        return { manifest, encrypted, state: staged };
    }
  }
  return fail('vault/corrupt', 'The file ended without its closing line.');
}
