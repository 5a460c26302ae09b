import { CHAT_SITES, chatSourceForOrigin } from '../core/capture/origins';
import { payloadFromPaste, payloadFromShare, type SharedData } from '../core/capture/paste';
import { parseCapturePayload, type CapturePayload } from '../core/capture/payload';
import {
  PAYLOAD_TYPE,
  PROTOCOL_VERSION,
  READY,
  RECEIVED,
  isMessageOfType,
  type ReadyMessage,
  type ReceivedMessage,
} from '../core/capture/protocol';
import { vaultError, type Result } from '../core/errors';
import { changesExisting, previewCapture, saveCapture, type CapturePreview, type CaptureResult } from './capture';
import { errors } from './errors.svelte';
import { touchVault } from './vault-actions';
import { vaultSession } from './vault-session.svelte';
import { VaultTarget } from './vault-target.svelte';

export type CaptureStatus = 'idle' | 'loading' | 'ready' | 'saving' | 'saved';

/** How often, and how long, the capture page repeats its READY message to the window that opened it. */
const READY_EVERY_MS = 1_000;
const READY_FOR_MS = 30_000;

/**
 * The capture page's state: where a capture came from (the bookmarklet's postMessage, the paste
 * box, or the share target), the validated payload, what storing it would add, and the result.
 * Every failure goes to the app's one error handler.
 */
export class CaptureSession {
  status = $state<CaptureStatus>('idle');
  payload = $state<CapturePayload | null>(null);
  preview = $state<CapturePreview | null>(null);
  result = $state<CaptureResult | null>(null);
  /** Where the shown capture came from: a chat origin, 'paste' or 'share'. */
  from = $state<string | null>(null);
  /** The source the sending chat site's origin proved (the bookmarklet's postMessage); null for a paste or a share. */
  verifiedSource = $state<string | null>(null);
  /** The person ticked "change this conversation" for the shown capture. */
  changeConfirmed = $state(false);
  /** Messages refused because of their origin or sender (they are otherwise ignored). */
  ignored = $state(0);
  /** True while this page has an opener it may be talking to. */
  hasOpener = $state(false);
  /** Which vault the capture goes into (asked when there is more than one). */
  readonly target = new VaultTarget();
  private seq = 0;

  /**
   * Listens for the bookmarklet's payload and tells the opener this page is ready. The READY
   * message is posted once per allowed chat origin as the target origin, so the browser delivers
   * it only when the opener is one of them. Returns the cleanup function.
   */
  listen(win: Window): () => void {
    const onMessage = (event: MessageEvent) => this.onMessage(win, event);
    win.addEventListener('message', onMessage);
    // Switching vaults reloads the page: it waits while a capture is being stored.
    const unbusy = vaultSession.onBusy(() => (this.status === 'saving' ? 'A capture is being stored.' : null));
    this.hasOpener = win.opener !== null;
    const started = Date.now();
    const announce = () => {
      const opener = win.opener as Window | null;
      if (!opener || this.payload || Date.now() - started > READY_FOR_MS) return;
      const ready: ReadyMessage = { type: READY, version: PROTOCOL_VERSION };
      for (const site of CHAT_SITES) {
        try {
          opener.postMessage(ready, site.origin);
        } catch {
          // The opener went away: nothing to announce to.
        }
      }
    };
    announce();
    const timer = setInterval(announce, READY_EVERY_MS);
    return () => {
      unbusy();
      clearInterval(timer);
      win.removeEventListener('message', onMessage);
    };
  }

  private onMessage(win: Window, event: MessageEvent): void {
    const source = chatSourceForOrigin(event.origin);
    // Literal origin check (the allow-list), and only the window that opened this page.
    if (!source || win.opener === null || event.source !== win.opener || !isMessageOfType(event.data, PAYLOAD_TYPE)) {
      if (event.origin !== win.location.origin) this.ignored += 1;
      return;
    }
    let parsed = parseCapturePayload(event.data);
    if (parsed.ok && parsed.value.source !== source) {
      parsed = {
        ok: false,
        error: vaultError('capture/origin', `A capture claiming to come from ${parsed.value.source} was sent by ${event.origin}.`),
      };
    }
    const reply: ReceivedMessage = { type: RECEIVED, ok: parsed.ok };
    (event.source as Window).postMessage(reply, event.origin);
    void this.show(parsed, event.origin, `receiving a capture from ${event.origin}`, source);
  }

  fromPaste(text: string): Promise<void> {
    return this.show(payloadFromPaste(text, Date.now()), 'paste', 'reading the pasted capture');
  }

  /** The share target's GET parameters; does nothing when nothing was shared. */
  async fromShare(shared: SharedData): Promise<void> {
    const parsed = payloadFromShare(shared, Date.now());
    if (parsed) await this.show(parsed, 'share', 'reading what was shared');
  }

  /**
   * Storing would add to, rename or reorder a conversation already in the vault that the capture's
   * sender is not proven to be: a paste or a share (they can claim any source and id), or a chat
   * site other than the conversation's. Then the person must tick the confirmation first.
   */
  get needsChangeConfirmation(): boolean {
    const existing = this.preview?.existing;
    return changesExisting(existing) && this.verifiedSource !== existing.source;
  }

  private async show(parsed: Result<CapturePayload>, from: string, context: string, verifiedSource: string | null = null): Promise<void> {
    if (!parsed.ok) {
      errors.report(parsed.error, context);
      return;
    }
    const seq = ++this.seq;
    this.status = 'loading';
    this.result = null;
    try {
      const preview = await previewCapture(parsed.value, this.target.chosen?.dbName);
      if (seq !== this.seq) return; // a newer capture arrived meanwhile
      this.payload = parsed.value;
      this.preview = preview;
      this.from = from;
      this.verifiedSource = verifiedSource;
      this.changeConfirmed = false;
      this.status = 'ready';
    } catch (thrown) {
      if (seq === this.seq) this.status = this.payload ? 'ready' : 'idle';
      errors.report(thrown, context);
    }
  }

  /** Another vault was chosen: the preview says what storing would add to that one. */
  async chooseTarget(id: string): Promise<void> {
    this.target.chosenId = id;
    const payload = this.payload;
    if (!payload || this.status !== 'ready') return;
    try {
      this.preview = await previewCapture($state.snapshot(payload) as CapturePayload, this.target.chosen?.dbName);
      // A confirmed change was to a conversation of the other vault.
      this.changeConfirmed = false;
    } catch (thrown) {
      errors.report(thrown, 'reading the capture');
    }
  }

  /** Stores the shown capture: only ever called from the person's confirmation. */
  async confirm(): Promise<void> {
    const payload = this.payload;
    const into = this.target.chosen;
    if (!payload || !into || this.status !== 'ready') return;
    if (this.needsChangeConfirmation && !this.changeConfirmed) return;
    const existing = this.preview?.existing;
    // Shown on the preview (of the chosen vault) and, when the sender is not proven, ticked by the person.
    const changeExisting = changesExisting(existing) ? existing.conversationId : null;
    this.status = 'saving';
    try {
      this.result = await saveCapture($state.snapshot(payload) as CapturePayload, { changeExisting }, into.dbName);
      touchVault(into.id).catch(() => undefined);
      this.status = 'saved';
    } catch (thrown) {
      this.status = 'ready';
      errors.report(thrown, 'storing the capture');
    }
  }

  discard(): void {
    this.seq++;
    this.payload = null;
    this.preview = null;
    this.result = null;
    this.from = null;
    this.verifiedSource = null;
    this.changeConfirmed = false;
    this.status = 'idle';
  }
}
