import { encodeHlc } from './hlc';
import { CURRENT_FORMAT_VERSION, isPlainObject, OLDEST_FORMAT_VERSION } from './format';
import { REQUIRED_SECTIONS, STAMPED_SECTIONS } from './sections';

/**
 * Reading older files. Each step turns version n into n + 1: the manifest once, and every record
 * line as it streams past (so an old multi-hundred-MB file is upgraded without being held).
 * Framing (section start/end lines, checksums over the bytes as written, trailer) is the same in
 * every version so far; a future version that changes framing adds a reader branch as well.
 *
 * Version 0 is the layout used before per-record clocks existed (kept as the worked example and
 * tested with a hand-written file):
 * - manifest without `createdAt`, `embeddingModelId` and `vectorsIncluded`;
 * - no `tombstones` and no `vectors` section (nothing was ever deleted across devices);
 * - records without `hlc`; notes kept their text in `body`.
 */
export interface FormatUpgrade {
  from: number;
  manifest(raw: Record<string, unknown>): Record<string, unknown>;
  record(section: string, raw: unknown): unknown;
}

/** Clock node recorded on stamps synthesised for version-0 records. */
export const V0_NODE = 'v0';

const v0ToV1: FormatUpgrade = {
  from: 0,
  manifest(raw) {
    const sections = Array.isArray(raw.sections) ? (raw.sections as unknown[]) : [];
    const counts = isPlainObject(raw.counts) ? raw.counts : {};
    const exportedAt = typeof raw.exportedAt === 'number' ? raw.exportedAt : 0;
    const upgradedCounts: Record<string, unknown> = {};
    for (const name of REQUIRED_SECTIONS) upgradedCounts[name] = sections.includes(name) ? counts[name] : 0;
    return {
      format: raw.format,
      version: 1,
      vaultId: raw.vaultId,
      createdAt: exportedAt,
      exportedAt,
      appVersion: raw.appVersion,
      embeddingModelId: null,
      vectorsIncluded: false,
      sections: [...REQUIRED_SECTIONS],
      counts: upgradedCounts,
    };
  },
  record(section, raw) {
    if (!isPlainObject(raw)) return raw;
    const out: Record<string, unknown> = { ...raw };
    if (section === 'notes' && !('text' in out) && typeof out.body === 'string') {
      out.text = out.body;
      delete out.body;
    }
    if ((STAMPED_SECTIONS as readonly string[]).includes(section) && !('hlc' in out)) {
      // The best version evidence v0 had: the last change time. Counter 0 and a fixed node make the
      // stamp deterministic, so two devices upgrading the same v0 file agree.
      const time = typeof out.updatedAt === 'number' ? out.updatedAt : typeof out.createdAt === 'number' ? out.createdAt : 0;
      out.hlc = encodeHlc({ wall: Math.max(0, Math.floor(time)), counter: 0, node: V0_NODE });
    }
    return out;
  },
};

const UPGRADES: readonly FormatUpgrade[] = [v0ToV1];

/** The steps from `version` to the current version, in order. */
export function upgradeSteps(version: number): FormatUpgrade[] {
  if (!Number.isInteger(version) || version < OLDEST_FORMAT_VERSION || version > CURRENT_FORMAT_VERSION) {
    throw new RangeError(`no upgrade path from format version ${version}`);
  }
  return UPGRADES.filter((step) => step.from >= version).sort((a, b) => a.from - b.from);
}

export function upgradeManifest(raw: Record<string, unknown>, steps: readonly FormatUpgrade[]): Record<string, unknown> {
  return steps.reduce((manifest, step) => step.manifest(manifest), raw);
}

export function upgradeRecord(section: string, raw: unknown, steps: readonly FormatUpgrade[]): unknown {
  let value = raw;
  for (const step of steps) value = step.record(section, value);
  return value;
}
