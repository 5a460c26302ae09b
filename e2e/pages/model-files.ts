import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { zipSync } from 'fflate';

/** A generated model folder under static/test-models (scripts/ensure-test-model.ts makes them before the e2e server starts), zipped as a person would, inside `folder/`. */
export function zipModelFolder(root: string, folder: string): Buffer {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[`${folder}/${relative(root, path)}`] = readFileSync(path);
    }
  };
  walk(root);
  return Buffer.from(zipSync(files));
}

/** Collects the page's console errors from now on; `cspViolations()` keeps those of the Content Security Policy (a model runtime needing eval). */
export function watchConsoleErrors(page: Page): { all: string[]; cspViolations: () => string[] } {
  const all: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') all.push(m.text());
  });
  return { all, cspViolations: () => all.filter((e) => /Content Security Policy|unsafe-eval/u.test(e)) };
}
