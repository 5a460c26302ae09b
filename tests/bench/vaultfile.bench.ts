import '../../src/cli/node-env';
import { pathToFileURL } from 'node:url';
import { ARGON2ID_DEFAULT, deriveKeyBytes, newKdfParams, passphraseBytes } from '../../src/lib/core/vaultfile/kdf';
import { readVault } from '../../src/lib/core/vaultfile/reader';
import { writeVaultState } from '../../src/lib/core/vaultfile/state-io';
import { exportVault } from '../../src/lib/store/vaultfile-export';
import { mergeVaultFile } from '../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../src/lib/store/vaultfile-restore';
import { generateVault, sampleMeta } from '../factories/vault-state';
import { summarize, type BenchContext, type BenchModule, type FigureSamples } from './harness';
import type { ChromiumVaultFileTiming } from './vaultfile.browser';
import { benchVault, drain, dropVault, fillVault, replay } from './vaultfile-store-work';

/**
 * Vault-file throughput through the app's store path, in Node (Dexie over fake-indexeddb, the
 * CLI's environment; the browser's worker runs the same store code over IndexedDB):
 *
 * - `vaultfile.100k[.encrypted].export_s`: `exportVault` of a vault of 100,000 messages (plus
 *   1,000 conversations, 5,000 notes, 10,000 chunks): the read-only snapshot of every table into
 *   the spool, then writing, hashing (and encrypting) the whole stream, drained to memory.
 * - `vaultfile.100k[.encrypted].import_s`: `restoreVault` of that file into an empty vault: read,
 *   verify (and decrypt) into the spool, then the one-transaction commit of every record.
 * - `vaultfile.100k.merge_noop_s`: `mergeVaultFile` of the vault's own file into itself (what a
 *   sync at start costs when nothing changed: read, verify, compare every record, empty commit).
 * - Encrypted figures use the default Argon2id (64 MiB, t=3, p=1); one derivation is inside each.
 * - `vaultfile.kdf_ms`: one default Argon2id derivation (hash-wasm), what the worker runs.
 * - `vaultfile.100k.chromium.{export_s,import_s}`: the same export and restore in headless Chromium
 *   over real IndexedDB (tests/bench/vaultfile.browser.ts), plain.
 * - `vaultfile.core.100k.{export_s,import_s}`: the pure core alone (writeVault / readVault of the
 *   same records in memory, no store), to show what the store adds.
 *
 * Standalone: `npx tsx tests/bench/vaultfile.bench.ts [runs]` prints the figures.
 */
const SHAPE = { conversations: 1_000, messagesPerConversation: 100, notes: 5_000, chunks: 10_000, seed: 7 };
const PASSPHRASE = 'benchmark passphrase';
const APP_VERSION = '0.1.0-bench';

const seconds = (start: number) => (performance.now() - start) / 1000;

async function storeFigures(ctx: BenchContext, state: ReturnType<typeof generateVault>): Promise<FigureSamples[]> {
  const figures: FigureSamples[] = [];
  const wanted = (encrypted: boolean) => {
    const prefix = encrypted ? 'vaultfile.100k.encrypted' : 'vaultfile.100k';
    return ['export_s', 'import_s', ...(encrypted ? [] : ['merge_noop_s'])].some((figure) => ctx.wants(`${prefix}.${figure}`));
  };
  if (!wanted(false) && !wanted(true)) return figures;
  const source = await benchVault('source');
  const setupStart = performance.now();
  await fillVault(source, state);
  ctx.log(`vaultfile store setup: ${seconds(setupStart).toFixed(1)} s to fill the source vault`);
  try {
    for (const encrypted of [false, true]) {
      const prefix = encrypted ? 'vaultfile.100k.encrypted' : 'vaultfile.100k';
      if (!wanted(encrypted)) continue;
      const exportS: number[] = [];
      const importS: number[] = [];
      const mergeS: number[] = [];
      let size = 0;
      let records = 0;
      for (let run = 0; run < ctx.runs; run++) {
        let start = performance.now();
        const exported = await exportVault(source, {
          vectors: false,
          appVersion: APP_VERSION,
          encryption: encrypted ? { passphrase: PASSPHRASE } : undefined,
          tx: { timeoutMs: 30 * 60_000 },
        });
        const { parts, bytes } = await drain(exported.stream);
        exportS.push(seconds(start));
        size = bytes;
        records = exported.records;
        const target = await benchVault('target');
        start = performance.now();
        const report = await restoreVault(target, replay(parts), { passphrase: encrypted ? PASSPHRASE : undefined });
        importS.push(seconds(start));
        await dropVault(target);
        const restored = Object.values(report.restored).reduce((n, c) => n + c, 0);
        if (restored !== records) throw new Error(`restored ${restored} of ${records} records`);
        if (!encrypted) {
          start = performance.now();
          const merged = await mergeVaultFile(source, replay(parts));
          mergeS.push(seconds(start));
          if (!merged.unchanged) throw new Error('merging the vault into itself changed it');
        }
        ctx.log(
          `${prefix} run ${run + 1}: export ${exportS.at(-1)!.toFixed(2)} s, import ${importS.at(-1)!.toFixed(2)} s${mergeS.length ? `, merge (no-op) ${mergeS.at(-1)!.toFixed(2)} s` : ''}, ${(bytes / 2 ** 20).toFixed(1)} MiB`,
        );
      }
      const meta = {
        ...SHAPE,
        records,
        fileMiB: +(size / 2 ** 20).toFixed(1),
        path: 'store (Dexie 4 over fake-indexeddb 6, Node): exportVault snapshot+write; restoreVault stage+commit into an empty vault',
        vectors: false,
        kdf: encrypted ? ARGON2ID_DEFAULT : null,
        node: process.version,
      };
      figures.push(
        { name: `${prefix}.export_s`, unit: 's', values: exportS, meta },
        { name: `${prefix}.import_s`, unit: 's', values: importS, meta },
      );
      if (mergeS.length)
        figures.push({
          name: 'vaultfile.100k.merge_noop_s',
          unit: 's',
          values: mergeS,
          meta: { ...meta, path: 'store: mergeVaultFile of the vault own file (plan only, empty commit)' },
        });
    }
  } finally {
    await dropVault(source);
  }
  return figures;
}

async function coreFigures(ctx: BenchContext, state: ReturnType<typeof generateVault>): Promise<FigureSamples[]> {
  const exportS: number[] = [];
  const importS: number[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    let start = performance.now();
    const { parts } = await drain(writeVaultState(sampleMeta(), state, { vectors: false }));
    exportS.push(seconds(start));
    start = performance.now();
    let ended = false;
    for await (const event of readVault(replay(parts))) if (event.kind === 'end') ended = true;
    if (!ended) throw new Error('the core read did not reach the end');
    importS.push(seconds(start));
  }
  const meta = { ...SHAPE, path: 'pure core in memory: writeVault drained / readVault to its end event, no store' };
  return [
    { name: 'vaultfile.core.100k.export_s', unit: 's', values: exportS, meta },
    { name: 'vaultfile.core.100k.import_s', unit: 's', values: importS, meta },
  ];
}

async function chromiumFigures(ctx: BenchContext): Promise<FigureSamples[]> {
  const browser = await ctx.browser();
  const timings: ChromiumVaultFileTiming[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    const t = await browser.run<ChromiumVaultFileTiming>('vaultfileRoundTrip', SHAPE);
    timings.push(t);
    ctx.log(
      `vaultfile chromium run ${run + 1}: setup ${t.setupS.toFixed(1)} s, export ${t.exportS.toFixed(2)} s, import ${t.importS.toFixed(2)} s`,
    );
  }
  const meta = {
    ...SHAPE,
    records: timings[0]?.records,
    fileMiB: +((timings[0]?.bytes ?? 0) / 2 ** 20).toFixed(1),
    path: 'store in headless Chromium, IndexedDB: exportVault snapshot+write; restoreVault stage+commit into an empty vault',
  };
  return [
    { name: 'vaultfile.100k.chromium.export_s', unit: 's', values: timings.map((t) => t.exportS), meta },
    { name: 'vaultfile.100k.chromium.import_s', unit: 's', values: timings.map((t) => t.importS), meta },
  ];
}

async function kdfFigure(ctx: BenchContext): Promise<FigureSamples> {
  const values: number[] = [];
  const passphrase = passphraseBytes(PASSPHRASE)!;
  for (let run = 0; run < ctx.runs; run++) {
    const params = newKdfParams(ARGON2ID_DEFAULT, (n) => crypto.getRandomValues(new Uint8Array(n)));
    const start = performance.now();
    await deriveKeyBytes(passphrase, params);
    values.push(performance.now() - start);
  }
  return {
    name: 'vaultfile.kdf_ms',
    unit: 'ms',
    values,
    meta: { kdf: ARGON2ID_DEFAULT, library: 'hash-wasm 4.13.0', node: process.version },
  };
}

export const bench: BenchModule = {
  name: 'vaultfile',
  async run(ctx: BenchContext): Promise<FigureSamples[]> {
    const state = generateVault(SHAPE);
    const figures = await storeFigures(ctx, state);
    if (ctx.wants('vaultfile.core')) figures.push(...(await coreFigures(ctx, state)));
    if (ctx.wants('vaultfile.100k.chromium')) figures.push(...(await chromiumFigures(ctx)));
    if (ctx.wants('vaultfile.kdf_ms')) figures.push(await kdfFigure(ctx));
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
    asked: () => false,
  };
  for (const figure of await bench.run(ctx)) {
    const { median, min, max } = summarize(figure.values);
    console.log(
      `${figure.name}: median ${median.toFixed(3)} ${figure.unit} (min ${min.toFixed(3)}, max ${max.toFixed(3)}, runs ${figure.values.length})`,
    );
  }
}
