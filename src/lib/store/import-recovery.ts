import type { ImportReport } from '../core/import/report';
import { totalsOf } from '../core/import/report';
import { rollbackStaged } from './import-session';
import type { Vault } from './vault';

/** The Web Lock an import holds while it runs: named after its vault and its id. */
export const importLockName = (dbName: string, importId: string): string => `engram-import:${dbName}:${importId}`;

/**
 * Rolls back imports left `running` by a closed tab or a crash: their staged rows are removed, so
 * the vault is exactly as before them, and their record says they were interrupted. An import whose
 * Web Lock is still held runs in another tab and is left alone. Returns how many were rolled back.
 */
export async function rollbackInterrupted(vault: Vault, locks?: LockManager, now: () => number = Date.now): Promise<number> {
  const running = await vault.db.imports.where('status').equals('running').toArray();
  if (running.length === 0) return 0;
  const held = locks ? new Set(((await locks.query()).held ?? []).map((lock) => lock.name)) : new Set<string>();
  let rolledBack = 0;
  for (const record of running) {
    if (held.has(importLockName(vault.db.name, record.id))) continue;
    await rollbackStaged(vault.db, `${record.id}/`);
    const report: ImportReport = {
      id: record.id,
      startedAt: record.startedAt,
      finishedAt: now(),
      status: 'cancelled',
      files: [],
      totals: totalsOf([]),
    };
    await vault.imports.put({
      ...record,
      status: 'cancelled',
      finishedAt: now(),
      report,
      label: `${record.label} (interrupted: the tab closed before it finished; nothing of it was kept)`,
    });
    rolledBack++;
  }
  return rolledBack;
}
