/**
 * Which embedder's vector index serves searches, and which one is being built to take over (a model
 * switch in the background). Invariants: the two are never the same embedder; the target takes over
 * only through `promote`, in one step, so a search never sees two embedders' vectors; the choices
 * are kept in the vault's settings so a restart resumes the same switch.
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { SettingsRepo } from '../../store/settings-repo';
import type { ModelIndex } from './model-index';

export const LEXICAL: EmbedderChoice = { kind: 'lexical' };

export interface IndexSlot {
  choice: EmbedderChoice;
  model: ModelIndex | null;
}

export class VectorIndexes {
  private servingSlot: IndexSlot = { choice: LEXICAL, model: null };
  private targetSlot: IndexSlot | null = null;

  constructor(private readonly settings: Pick<SettingsRepo, 'get' | 'set'>) {}

  get serving(): IndexSlot {
    return this.servingSlot;
  }

  get target(): IndexSlot | null {
    return this.targetSlot;
  }

  /** The loaded indexes, serving first. */
  models(): ModelIndex[] {
    return [this.servingSlot.model, this.targetSlot?.model ?? null].filter((m): m is ModelIndex => m !== null);
  }

  isServing(choice: EmbedderChoice): boolean {
    return choiceId(choice) === choiceId(this.servingSlot.choice);
  }

  isTarget(choice: EmbedderChoice): boolean {
    return this.targetSlot !== null && choiceId(choice) === choiceId(this.targetSlot.choice);
  }

  /** The saved choices (a target equal to the serving embedder is no target). */
  async savedChoices(): Promise<{ serving: EmbedderChoice; target: EmbedderChoice | null }> {
    const serving = (await this.settings.get('index.serving')) ?? LEXICAL;
    const target = await this.settings.get('index.target');
    return { serving, target: target && choiceId(target) !== choiceId(serving) ? target : null };
  }

  /** Serves these indexes (after a load or reload). */
  open(serving: IndexSlot, target: IndexSlot | null): void {
    this.servingSlot = serving;
    this.targetSlot = target && choiceId(target.choice) !== choiceId(serving.choice) ? target : null;
  }

  /** Starts (or with null, cancels) building another embedder's index; returns the slot it replaced. */
  async setTarget(slot: IndexSlot | null): Promise<IndexSlot | null> {
    const replaced = this.targetSlot;
    this.targetSlot = slot && !this.isServing(slot.choice) ? slot : null;
    await this.settings.set('index.target', this.targetSlot?.choice ?? null);
    return replaced;
  }

  /** The target takes over; returns the slot that served before (to be discarded). */
  async promote(): Promise<IndexSlot | null> {
    const target = this.targetSlot;
    if (!target) return null;
    const old = this.servingSlot;
    this.servingSlot = target;
    this.targetSlot = null;
    await this.settings.set('index.serving', target.choice.kind === 'lexical' ? null : target.choice);
    await this.settings.set('index.target', null);
    return old;
  }
}
