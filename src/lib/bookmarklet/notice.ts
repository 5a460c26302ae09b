/**
 * The bookmarklet's small panel on the chat page. Built with createElement/textContent only (chat
 * sites enforce Trusted Types, which forbid innerHTML) and styled through the CSSOM (which a
 * site's style-src does not block), inside a shadow root so the page's CSS does not reach it.
 */
export type NoticeState = 'sending' | 'sent' | 'clipboard' | 'error';

export interface Notice {
  show(state: NoticeState, message: string): void;
  /** The clipboard fallback: says why, and offers Copy (again) and a link to the capture page. */
  offerCopy(message: string, copy: () => Promise<boolean>, captureUrl: string): void;
}

export const NOTICE_ID = 'engram-capture-notice';

type Style = Partial<Record<'cssText', never>> & Record<string, string>;

function styled<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, style: Style, text?: string): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  Object.assign(el.style, style);
  if (text !== undefined) el.textContent = text;
  return el;
}

const BUTTON: Style = {
  font: '13px system-ui, sans-serif',
  padding: '4px 10px',
  marginRight: '6px',
  border: '1px solid #9aa3b5',
  borderRadius: '6px',
  background: '#fff',
  color: '#1b1f2a',
  cursor: 'pointer',
};

export function createNotice(doc: Document): Notice {
  doc.getElementById(NOTICE_ID)?.remove();
  const host = doc.createElement('div');
  host.id = NOTICE_ID;
  Object.assign(host.style, { position: 'fixed', right: '16px', bottom: '16px', zIndex: '2147483647' });
  const root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
  const box = styled(doc, 'div', {
    font: '14px/1.4 system-ui, sans-serif',
    maxWidth: '360px',
    padding: '12px 14px',
    borderRadius: '10px',
    background: '#1f2a44',
    color: '#fff',
    boxShadow: '0 4px 18px rgba(0,0,0,.3)',
  });
  box.setAttribute('role', 'status');
  const heading = styled(doc, 'strong', { display: 'block', marginBottom: '4px', color: '#f2c14e' }, 'Engram Vault');
  const text = styled(doc, 'p', { margin: '0 0 8px' });
  const actions = styled(doc, 'div', {});
  const close = styled(doc, 'button', BUTTON, 'Close');
  close.type = 'button';
  close.addEventListener('click', () => host.remove());
  box.append(heading, text, actions);
  root.append(box);
  (doc.body ?? doc.documentElement).append(host);

  const show = (state: NoticeState, message: string) => {
    host.setAttribute('data-state', state);
    text.textContent = message;
    actions.replaceChildren(close);
  };

  return {
    show,
    offerCopy(message, copy, captureUrl) {
      show('clipboard', message);
      const again = styled(doc, 'button', BUTTON, 'Copy again');
      again.type = 'button';
      again.addEventListener('click', () => {
        void copy().then((copied) => {
          again.textContent = copied ? 'Copied' : 'Copy failed';
        });
      });
      const link = styled(doc, 'a', { color: '#f2c14e', marginRight: '8px' }, 'Open the Capture page');
      link.href = captureUrl;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      actions.replaceChildren(again, link, close);
    },
  };
}
