import { readFile } from 'node:fs/promises';
import { CURRENT_SCHEMA_VERSION } from '../../lib/store/schema';
import type { Command } from '../command';

export const versionCommand: Command = {
  name: 'version',
  summary: 'Print the app version, the vault schema version and the runtime.',
  usage: 'version [--json]',
  async run() {
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string; name: string };
    const json = { name: pkg.name, version: pkg.version, schemaVersion: CURRENT_SCHEMA_VERSION, node: process.versions.node };
    return { json, text: `${pkg.name} ${pkg.version} (vault schema v${CURRENT_SCHEMA_VERSION}, Node ${process.versions.node})` };
  },
};
