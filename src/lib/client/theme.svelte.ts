/**
 * Light or dark: the system's choice unless the person picks one (Settings → Appearance). The
 * choice lives in localStorage, not the vault: it belongs to this device and must be known before
 * the first paint, before IndexedDB could answer. `apply()` runs when the root layout's script is
 * evaluated, so the page is never drawn in the wrong theme first.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'engram-theme';
const THEME_COLOR = { light: '#1f2a44', dark: '#0e1322' } as const;

function read(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage blocked: follow the system
  }
}

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor() {
    if (typeof localStorage !== 'undefined') this.choice = read();
  }

  /** The theme in effect now (the system's, when the choice is "system"). */
  get effective(): 'light' | 'dark' {
    if (this.choice !== 'system') return this.choice;
    return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // Not remembered across visits; still applied now.
    }
    this.apply();
  }

  apply(): void {
    if (typeof document === 'undefined') return;
    const root = document.documentElement;
    if (this.choice === 'system') delete root.dataset.theme;
    else root.dataset.theme = this.choice;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOR[this.effective]);
  }
}

export const theme = new Theme();
