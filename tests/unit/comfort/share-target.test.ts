import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARE_ACTION, SHARE_FILES_FIELD, shareRedirect } from '../../../src/lib/core/capture/share-target';
import { isVaultFileHead } from '../../../src/lib/core/vaultfile/sniff';

const manifest = JSON.parse(readFileSync(new URL('../../../static/manifest.webmanifest', import.meta.url), 'utf8')) as {
  share_target: { action: string; method: string; enctype: string; params: { files: { name: string; accept: string[] }[] } };
  file_handlers: { action: string; accept: Record<string, string[]> }[];
  shortcuts: { name: string; url: string }[];
};
const bytes = (s: string) => new TextEncoder().encode(s);

describe('share target and file handlers', () => {
  it('the manifest shares files by multipart POST to the action the service worker handles', () => {
    expect(manifest.share_target).toMatchObject({ action: SHARE_ACTION, method: 'POST', enctype: 'multipart/form-data' });
    expect(manifest.share_target.params.files[0]!.name).toBe(SHARE_FILES_FIELD);
    expect(manifest.share_target.params.files[0]!.accept).toEqual(expect.arrayContaining(['.zip', '.json', '.engram', '.md']));
    const extensions = manifest.file_handlers.flatMap((h) => Object.values(h.accept).flat());
    expect(extensions.sort()).toEqual(['.engram', '.json', '.md', '.zip']);
    expect(manifest.shortcuts.map((s) => [s.name, s.url])).toEqual([
      ['Recall', '/'],
      ['Import', '/import'],
    ]);
  });

  it('sends files to the Import screen and text or links to Capture', () => {
    expect(shareRedirect('b1', { text: 'ignored' })).toBe('/import?incoming=b1');
    expect(shareRedirect(null, { title: 'T', text: 'a b', url: '' })).toBe('/capture?title=T&text=a+b');
    expect(shareRedirect(null, {})).toBe('/capture');
  });

  it('recognises a vault file by its first line, plain or encrypted, whatever its name', () => {
    expect(isVaultFileHead(bytes('{"format":"engram-vault","version":1,"vaultId":"v"}\n{"section":"conversations"}\n'))).toBe(true);
    expect(isVaultFileHead(bytes('{"format":"engram-vault","version":1,"encryption":{"kdf":"x"}}\n\u0000\u0001binary'))).toBe(true);
    expect(isVaultFileHead(bytes('[{"title":"a ChatGPT export","mapping":{}}]'))).toBe(false);
    expect(isVaultFileHead(bytes('{"format":"something-else"}\n'))).toBe(false);
    expect(isVaultFileHead(bytes('PK\u0003\u0004zip'))).toBe(false);
    expect(isVaultFileHead(bytes('{"format":"engram-vault"'))).toBe(false);
  });
});
