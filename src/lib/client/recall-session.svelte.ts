import type { IntentClass } from '../core/recall/intent-class';
import type { RecallRequest, RecallResponse } from '../core/api/recall-api';
import { describeError } from '../core/error-text';
import type { VaultError } from '../core/errors';
import { toVaultError } from '../core/errors';
import { DEFAULT_TARGET_ID, resolveTarget } from '../core/recall/model-windows';
import type { FlaggedLinePolicy } from '../core/recall/budget';
import type { PackageFormat } from '../core/recall/package-format';
import { errors } from './errors.svelte';
import { indexer } from './indexer.svelte';
import { vaultViews } from '../store/views/vault-views';
import { vaultWorker } from './vault-worker';

export type RecallAnswer = Extract<RecallResponse, { stale: false }>;

/** What the search needs from the index worker (IndexClient.recall; a fake in tests). */
export interface RecallBackend {
  recall(request: RecallRequest): Promise<RecallResponse>;
}

/** Where the screen's choices are remembered (the vault's device settings). */
export interface RecallPrefs {
  target: string | number;
  format: PackageFormat;
  funnel: boolean;
  /** Search the hints (off by default). */
  hints: boolean;
  appendPrompt: boolean;
  /** Flagged lines left out of the package (default) or kept quoted. */
  flaggedLines: FlaggedLinePolicy;
}

export const DEBOUNCE_MS = 300;

/**
 * The Recall screen's state: the prompt and the person's choices, the newest answer of the index
 * worker (older ones are dropped by request id), and copy-to-prompt. Typing reruns the search after
 * a short pause; Enter runs it at once.
 */
export class RecallSession {
  prompt = $state('');
  /** The intent as the person edited it; null: derived from the prompt. */
  intentEdit = $state<string | null>(null);
  /** The intent class the person chose; null: classified from the prompt. */
  intentClassEdit = $state<IntentClass | null>(null);
  funnel = $state(true);
  hints = $state(false);
  target = $state<string | number>(DEFAULT_TARGET_ID);
  format = $state<PackageFormat>('markdown');
  appendPrompt = $state(false);
  flaggedLines = $state<FlaggedLinePolicy>('drop');
  pinned = $state<string[]>([]);
  /**
   * Note pins written from this screen (the note itself, in the vault), shown until an answer
   * carries the same state for the note; from then on the answer's record decides (an unpin from
   * another tab shows). A cached answer from before the write does not drop it.
   */
  notePins = $state<Record<string, boolean>>({});
  notePinBusy = $state(false);
  dropped = $state<string[]>([]);
  answer = $state<RecallAnswer | null>(null);
  error = $state<VaultError | null>(null);
  running = $state(false);
  copy = $state<{ state: 'idle' | 'copied' | 'refused'; message: string | null }>({ state: 'idle', message: null });

  /** Exactly what Copy puts on the clipboard (and what the preview shows). */
  readonly copyText = $derived.by(() => {
    const text = this.answer?.package.text ?? '';
    if (!text) return '';
    return this.appendPrompt && this.answer ? `${text}\n${this.answer.result.prompt}\n` : text;
  });

  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly backend: RecallBackend = { recall: (r) => indexer().recall(r) },
    private readonly prefs: { load(): Promise<RecallPrefs>; save(p: RecallPrefs): Promise<void> } = vaultPrefs,
    private readonly notes: { setPinned(id: string, pinned: boolean): Promise<unknown> } = {
      setPinned: (id, pinned) => vaultWorker().call('setPinned', [id, pinned]),
    },
  ) {}

  /** Whether a kept note on screen is pinned in the vault (this screen's own pins first). */
  isNotePinned(record: { id: string; notePinned?: boolean }): boolean {
    return this.notePins[record.id] ?? record.notePinned === true;
  }

  /** Drops the overrides the answer agrees with: its records now say the same. */
  private settleNotePins(answer: RecallAnswer): void {
    if (Object.keys(this.notePins).length === 0) return;
    const agreed = answer.result.items.filter((i) => this.notePins[i.record.id] === (i.record.notePinned === true)).map((i) => i.record.id);
    if (agreed.length > 0) this.notePins = Object.fromEntries(Object.entries(this.notePins).filter(([id]) => !agreed.includes(id)));
  }

  /**
   * Pins (or unpins) the note itself, as Notes does: a stamped change with history, kept across
   * sessions and in the vault file; the note is Core in every package where it passes the gate.
   * The search runs again so the package shows it.
   */
  async pinNote(id: string, pinned: boolean): Promise<void> {
    if (this.notePinBusy) return;
    this.notePinBusy = true;
    try {
      await this.notes.setPinned(id, pinned);
      this.notePins = { ...this.notePins, [id]: pinned };
      void this.run();
    } catch (error) {
      errors.report(error, pinned ? 'pinning a note' : 'unpinning a note');
    } finally {
      this.notePinBusy = false;
    }
  }

  async loadPrefs(): Promise<void> {
    const p = await this.prefs.load();
    this.target = resolveTarget(p.target) ? p.target : DEFAULT_TARGET_ID;
    this.format = p.format;
    this.funnel = p.funnel;
    this.hints = p.hints === true;
    this.appendPrompt = p.appendPrompt;
    this.flaggedLines = p.flaggedLines === 'quote' ? 'quote' : 'drop';
  }

  private savePrefs(): void {
    const p = {
      target: this.target,
      format: this.format,
      funnel: this.funnel,
      hints: this.hints,
      appendPrompt: this.appendPrompt,
      flaggedLines: this.flaggedLines,
    };
    this.prefs.save(p).catch(() => undefined);
  }

  /** The prompt changed (typing): a new prompt has its own intent; search after a pause. */
  typed(): void {
    this.intentEdit = null;
    this.intentClassEdit = null;
    this.schedule();
  }

  schedule(delay = DEBOUNCE_MS): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  /**
   * The index grew (documents indexed meanwhile): search the prompt again, unless a search is
   * already waiting. Never pushes back a search the person's typing scheduled.
   */
  refresh(delay = 1_000): void {
    if (this.timer !== null || !this.prompt.trim()) return;
    this.schedule(delay);
  }

  /** Runs the search now; an answer to an older request that arrives later is dropped. */
  async run(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const prompt = this.prompt.trim();
    const requestId = ++this.seq;
    if (!prompt) {
      this.answer = null;
      this.error = null;
      this.running = false;
      return;
    }
    const request: RecallRequest = {
      requestId,
      prompt,
      intent: this.intentEdit?.trim() || null,
      intentClass: this.intentClassEdit,
      funnel: this.funnel,
      hints: this.hints,
      target: this.target,
      format: this.format,
      pinned: [...this.pinned],
      dropped: [...this.dropped],
      flaggedLines: this.flaggedLines,
    };
    this.running = true;
    try {
      const response = await this.backend.recall(request);
      if (response.stale || requestId !== this.seq) return;
      const shown = this.copyText;
      this.answer = response;
      this.settleNotePins(response);
      this.error = null;
      // What Copy said stays until the package it spoke of changes (a rerun by the index's refresh
      // that brings back the same package must not wipe "Copied" or a refusal the person has not read).
      if (this.copyText !== shown) this.copy = { state: 'idle', message: null };
    } catch (thrown) {
      if (requestId !== this.seq) return;
      this.error = toVaultError(thrown, 'recall/failed');
    } finally {
      if (requestId === this.seq) this.running = false;
    }
  }

  editIntent(text: string): void {
    this.intentEdit = text;
    this.schedule();
  }

  /** The person changed the intent class: the search runs again routed by it (null: classify again). */
  editIntentClass(intent: IntentClass | null): void {
    this.intentClassEdit = intent;
    void this.run();
  }

  setTarget(target: string | number): void {
    if (!resolveTarget(target)) return;
    this.target = target;
    this.savePrefs();
    void this.run();
  }

  setFormat(format: PackageFormat): void {
    this.format = format;
    this.savePrefs();
    void this.run();
  }

  setFunnel(on: boolean): void {
    this.funnel = on;
    this.savePrefs();
    void this.run();
  }

  /** Search the hints too (remembered on this device). */
  setHints(on: boolean): void {
    this.hints = on;
    this.savePrefs();
    void this.run();
  }

  /** Keep flagged lines quoted in the package instead of leaving them out (remembered on this device). */
  setFlaggedLines(policy: FlaggedLinePolicy): void {
    this.flaggedLines = policy;
    this.savePrefs();
    void this.run();
  }

  setAppendPrompt(on: boolean): void {
    this.appendPrompt = on;
    this.savePrefs();
  }

  togglePin(id: string): void {
    this.pinned = this.pinned.includes(id) ? this.pinned.filter((p) => p !== id) : [...this.pinned, id];
    this.dropped = this.dropped.filter((d) => d !== id);
    void this.run();
  }

  drop(id: string): void {
    if (!this.dropped.includes(id)) this.dropped = [...this.dropped, id];
    this.pinned = this.pinned.filter((p) => p !== id);
    void this.run();
  }

  restore(id: string): void {
    this.dropped = this.dropped.filter((d) => d !== id);
    void this.run();
  }

  /**
   * The keyboard shortcut: when the answer on screen is not for the prompt as typed (a search is
   * still waiting out the debounce), it runs first, so what is copied always matches the prompt.
   */
  async copyLatest(): Promise<boolean> {
    if (this.timer !== null || (this.prompt.trim() && this.answer?.result.prompt !== this.prompt.trim())) await this.run();
    return this.copyToPrompt();
  }

  /** Copies the package (and the prompt, when asked) to the clipboard; says so when refused. */
  async copyToPrompt(clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard): Promise<boolean> {
    const text = this.copyText;
    if (!text) {
      this.copy = { state: 'refused', message: 'There is nothing to copy yet: type a prompt that the vault has memories for.' };
      return false;
    }
    try {
      if (!clipboard) throw new Error('This browser offers no clipboard to this page.');
      await clipboard.writeText(text);
      this.copy = { state: 'copied', message: null };
      return true;
    } catch (thrown) {
      const why = describeError(thrown).sentence;
      this.copy = {
        state: 'refused',
        message: `The browser refused to write to the clipboard (${why}). Select the package below and copy it with Ctrl+C (Cmd+C on a Mac).`,
      };
      return false;
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.seq++;
  }
}

const vaultPrefs = {
  async load(): Promise<RecallPrefs> {
    const views = await vaultViews();
    const [target, format, funnel, hints, appendPrompt, flaggedLines] = await Promise.all([
      views.setting('device.recall.target'),
      views.setting('device.recall.format'),
      views.setting('device.recall.funnel'),
      views.setting('device.recall.hints'),
      views.setting('device.recall.appendPrompt'),
      views.setting('device.recall.flaggedLines'),
    ]);
    return { target, format, funnel, hints, appendPrompt, flaggedLines };
  },
  async save(p: RecallPrefs): Promise<void> {
    const writer = vaultWorker();
    await Promise.all([
      writer.call('setPreference', ['device.recall.target', p.target]),
      writer.call('setPreference', ['device.recall.format', p.format]),
      writer.call('setPreference', ['device.recall.funnel', p.funnel]),
      writer.call('setPreference', ['device.recall.hints', p.hints]),
      writer.call('setPreference', ['device.recall.appendPrompt', p.appendPrompt]),
      writer.call('setPreference', ['device.recall.flaggedLines', p.flaggedLines]),
    ]);
  },
};
