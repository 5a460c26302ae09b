import { describe, expect, it } from 'vitest';
import { isVaultError } from '../../../src/lib/core/errors';
import { runTx, withStoreTimeout } from '../../../src/lib/store/transaction';
import { freshDb } from '../../factories/db';

describe('runTx', () => {
  it('surfaces a transaction that never settles as store/timeout', async () => {
    const db = freshDb();
    const stuck = runTx(
      db,
      'rw',
      db.settings,
      // A promise that never settles stands in for a write a full disk left hanging.
      () => new Promise<void>(() => undefined),
      { timeoutMs: 50, label: 'a test write' },
    );
    const error = await stuck.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isVaultError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'store/timeout' });
    expect((error as Error).message).toContain('a test write');
    db.close();
  });

  it('returns the value of a transaction that commits, and maps failures to the one error shape', async () => {
    const db = freshDb();
    expect(await runTx(db, 'rw', db.settings, async () => (await db.settings.put({ key: 'a', value: 1 }), 'ok'))).toBe('ok');
    const failure = await runTx(db, 'rw', db.settings, async () => {
      await db.settings.add({ key: 'a', value: 2 }); // duplicate key
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'store/failed' });
    expect((await db.settings.get('a'))?.value).toBe(1);
    db.close();
  });

  it('withStoreTimeout times out any store promise', async () => {
    await expect(withStoreTimeout(new Promise(() => undefined), { timeoutMs: 10 })).rejects.toMatchObject({ code: 'store/timeout' });
  });
});
