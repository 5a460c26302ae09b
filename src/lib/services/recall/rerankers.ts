/**
 * Settings' reranker list over the model cache (the same library code as the embedders'): which
 * rerankers are offered, which are cached and how big, which one recall uses; choosing one,
 * deleting one's files, and storing a provided folder or ZIP.
 */
import type { ModelFileInput } from '../../core/api/index-api';
import { rerankerId, type RerankerChoice, type RerankerEntry } from '../../core/api/reranker';
import { fail } from '../../core/errors';
import type { RerankerLibrary } from '../../models/model-library';
import { rerankerLabel } from '../../models/reranker-models';
import type { RerankerSlot } from './reranker-slot';

export class Rerankers {
  constructor(
    private readonly slot: RerankerSlot,
    private readonly library: RerankerLibrary | null,
  ) {}

  async entries(): Promise<RerankerEntry[]> {
    const choices: RerankerChoice[] = [...((await this.library?.known()) ?? [])];
    const active = this.slot.chosen();
    if (active && !choices.some((c) => rerankerId(c) === rerankerId(active))) choices.push(active);
    return Promise.all(
      choices.map(async (choice) => {
        const size = this.library ? await this.library.size(choice) : { bytes: 0, files: 0 };
        return {
          rerankerId: rerankerId(choice),
          choice,
          label: rerankerLabel(choice),
          cached: size.files > 0,
          bytes: size.bytes,
          files: size.files,
          active: active !== null && rerankerId(active) === rerankerId(choice),
        };
      }),
    );
  }

  use(choice: RerankerChoice | null): Promise<void> {
    return this.slot.use(choice);
  }

  async delete(id: string): Promise<void> {
    const entry = (await this.entries()).find((e) => e.rerankerId === id);
    if (!entry) fail('input/invalid', 'That reranker is not in the list.');
    if (entry.active) await this.slot.use(null);
    await this.library?.remove(entry.choice);
  }

  async importFiles(files: ModelFileInput[]): Promise<RerankerEntry> {
    if (!this.library) fail('embed/unavailable', 'Model files can only be stored in the browser.');
    const choice = await this.library.importFiles(files);
    return (await this.entries()).find((e) => e.rerankerId === rerankerId(choice))!;
  }
}
