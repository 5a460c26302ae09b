/// <reference types="vite/client" />
// Registers every `tests/bench/*.browser.ts` module's functions on `window.__bench` for the runner.
type BenchFn = (args: unknown) => Promise<unknown>;

const modules = import.meta.glob<{ functions: Record<string, BenchFn> }>('../*.browser.ts', { eager: true });
const registry: Record<string, BenchFn> = {};
for (const module of Object.values(modules)) Object.assign(registry, module.functions);

const scope = window as unknown as { __bench: Record<string, BenchFn>; __benchReady: boolean };
scope.__bench = registry;
scope.__benchReady = true;
document.getElementById('status')!.textContent = `ready: ${Object.keys(registry).join(', ')}`;
