import { pathToFileURL } from 'node:url';
import { ARGON2ID_DEFAULT, deriveKeyBytes, newKdfParams, passphraseBytes } from '../../src/lib/core/vaultfile/kdf';
import { readVault } from '../../src/lib/core/vaultfile/reader';
import { writeVaultState } from '../../src/lib/core/vaultfile/state-io';
import { generateVault, sampleMeta } from '../factories/vault-state';
import { summarize, type BenchContext, type BenchModule, type FigureSamples } from './harness';

/**
 * Vault-file throughput on the pure core in Node: export (write the whole stream and drain it)
 * and import (read, verify and decode every record to the `end` event) of a generated vault of
 * 100,000 messages, plain and encrypted (default Argon2id: 64 MiB, t=3, p=1; one derivation is
 * included in each encrypted figure), and the time of one default key derivation.
 *
 * Standalone: `npx tsx tests/bench/vaultfile.bench.ts [runs]` prints the figures.
 */
const SHAPE = { conversations: 1_000, messagesPerConversation: 100, notes: 5_000, chunks: 10_000, seed: 7 };
const PASSPHRASE = 'benchmark passphrase';

async function drain(stream: ReadableStream<Uint8Array>): Promise<{ parts: Uint8Array[]; bytes: number }> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { parts, bytes };
    parts.push(value);
    bytes += value.length;
  }
}

function replay(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else controller.close();
    },
  });
}

async function importAll(parts: Uint8Array[], passphrase?: string): Promise<number> {
  let records = 0;
  let ended = false;
  for await (const event of readVault(replay(parts), { passphrase })) {
    if (event.kind === 'records') records += event.records.length;
    if (event.kind === 'end') ended = true;
  }
  if (!ended) throw new Error('import did not reach the end of the file');
  return records;
}

const seconds = (start: number) => (performance.now() - start) / 1000;

export const bench: BenchModule = {
  name: 'vaultfile',
  async run(ctx: BenchContext): Promise<FigureSamples[]> {
    const figures: FigureSamples[] = [];
    const state = generateVault(SHAPE);
    const totalRecords = Object.values(state).reduce((n, rows) => n + rows.length, 0);
    const meta = sampleMeta();
    for (const encrypted of [false, true]) {
      const prefix = encrypted ? 'vaultfile.100k.encrypted' : 'vaultfile.100k';
      if (!ctx.wants(prefix)) continue;
      const options = encrypted ? { vectors: false, encryption: { passphrase: PASSPHRASE } } : { vectors: false };
      const exportS: number[] = [];
      const importS: number[] = [];
      let size = 0;
      for (let run = 0; run < ctx.runs; run++) {
        let start = performance.now();
        const { parts, bytes } = await drain(writeVaultState(meta, state, options));
        exportS.push(seconds(start));
        size = bytes;
        start = performance.now();
        const records = await importAll(parts, encrypted ? PASSPHRASE : undefined);
        importS.push(seconds(start));
        if (records !== totalRecords) throw new Error(`imported ${records} of ${totalRecords} records`);
        ctx.log(
          `${prefix} run ${run + 1}: export ${exportS.at(-1)!.toFixed(2)} s, import ${importS.at(-1)!.toFixed(2)} s, ${(bytes / 2 ** 20).toFixed(1)} MiB`,
        );
      }
      const metaInfo = {
        ...SHAPE,
        records: totalRecords,
        fileMiB: +(size / 2 ** 20).toFixed(1),
        kdf: encrypted ? ARGON2ID_DEFAULT : null,
        node: process.version,
      };
      figures.push(
        { name: `${prefix}.export_s`, unit: 's', values: exportS, meta: metaInfo },
        { name: `${prefix}.import_s`, unit: 's', values: importS, meta: metaInfo },
      );
    }
    if (ctx.wants('vaultfile.kdf_ms')) {
      const values: number[] = [];
      const passphrase = passphraseBytes(PASSPHRASE)!;
      for (let run = 0; run < ctx.runs; run++) {
        const params = newKdfParams(ARGON2ID_DEFAULT, (n) => crypto.getRandomValues(new Uint8Array(n)));
        const start = performance.now();
        await deriveKeyBytes(passphrase, params);
        values.push(performance.now() - start);
      }
      figures.push({ name: 'vaultfile.kdf_ms', unit: 'ms', values, meta: { kdf: ARGON2ID_DEFAULT, library: 'hash-wasm 4.13.0' } });
    }
    return figures;
  },
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 3);
  const ctx: BenchContext = {
    runs,
    dataDir: '../shared/data',
    log: (message) => console.log(message),
    browser: () => Promise.reject(new Error('no browser in the standalone run')),
    wants: () => true,
  };
  for (const figure of await bench.run(ctx)) {
    const { median, min, max } = summarize(figure.values);
    console.log(
      `${figure.name}: median ${median.toFixed(3)} ${figure.unit} (min ${min.toFixed(3)}, max ${max.toFixed(3)}, runs ${figure.values.length})`,
    );
  }
}
