/**
 * What the index tells the person about itself (a rebuilt index, a write-back that failed): the
 * newest few, newest first. Adding one announces a change; nothing else edits the list.
 */
import type { IndexNotice } from '../../core/api/index-api';
import type { VaultError } from '../../core/errors';
import type { ChangeFeed } from './change-feed';

export const MAX_NOTICES = 5;

export class Notices {
  private items: IndexNotice[] = [];

  constructor(
    private readonly feed: ChangeFeed,
    private readonly now: () => number,
  ) {}

  get list(): readonly IndexNotice[] {
    return this.items;
  }

  add(code: VaultError['code'], message: string): void {
    this.items = [{ at: this.now(), code, message }, ...this.items].slice(0, MAX_NOTICES);
    this.feed.emit();
  }
}
