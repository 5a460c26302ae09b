import type { Action } from 'svelte/action';

export interface DialogFocusOptions {
  /** Escape closes the dialog. */
  onescape?: () => void;
  /** Which control takes focus first (a selector inside the dialog); the first control otherwise. */
  initial?: string;
}

const CONTROLS = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * Focus for an inline dialog (a confirmation, a prompt the person opened): focus moves into it when
 * it appears, Escape closes it, and focus returns to what had it (the button that opened it) when it
 * goes away, so a keyboard or screen-reader user never loses their place.
 */
export const dialogFocus: Action<HTMLElement, DialogFocusOptions | undefined> = (node, options) => {
  let current = options ?? {};
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const first = (current.initial ? node.querySelector<HTMLElement>(current.initial) : null) ?? node.querySelector<HTMLElement>(CONTROLS);
  (first ?? node).focus();
  const onkeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && current.onescape) {
      event.stopPropagation();
      current.onescape();
    }
  };
  node.addEventListener('keydown', onkeydown);
  return {
    update(next) {
      current = next ?? {};
    },
    destroy() {
      node.removeEventListener('keydown', onkeydown);
      // After the dialog's own DOM is gone: give focus back if nothing else took it.
      queueMicrotask(() => {
        if (previous?.isConnected && (document.activeElement === document.body || document.activeElement === null)) previous.focus();
      });
    },
  };
};
