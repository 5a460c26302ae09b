/** The vault file: format, streaming writer and reader, merge, digest, encryption. Pure core. */
export * from './hlc';
export * from './sections';
export { CURRENT_FORMAT_VERSION, VAULT_FORMAT, type VaultExportMeta, type VaultManifest } from './format';
export {
  writeVault,
  plainVaultBytes,
  type EncryptOptions,
  type RecordSource,
  type SectionSource,
  type VaultSections,
  type WriteVaultOptions,
} from './writer';
export { readVault, type ReadVaultOptions, type VaultReadEvent } from './reader';
export { readVaultState, sectionsOf, writeVaultState } from './state-io';
export {
  mergeKey,
  mergeVaults,
  displacedHistory,
  displacedHistoryEntry,
  HISTORY_SECTIONS,
  MERGE_HISTORY_ACTION,
  type KeyMerge,
} from './merge';
export { compareVersions, pickVersion, survivesTombstone } from './version-order';
export { vaultDigest } from './digest';
export { canonicalJson } from './canonical-json';
export {
  ARGON2ID_DEFAULT,
  ARGON2ID_MINIMUM,
  PBKDF2_DEFAULT,
  PBKDF2_MIN_ITERATIONS,
  deriveKeyBytes,
  passphraseBytes,
  type DeriveKeyFn,
  type KdfChoice,
  type KdfParams,
} from './kdf';
export { DEFAULT_CHUNK_SIZE, ENCRYPTION_SCHEME, WRONG_PASSPHRASE, type EncryptionHeader } from './crypto';
