import { toVaultError, type ErrorCode, type VaultError } from './errors';

/** How an error is shown to a person: what happened, in a sentence, and what to do next. */
export interface ErrorText {
  title: string;
  sentence: string;
  nextStep: string;
}

type Family = ErrorCode extends `${infer F}/${string}` ? F : never;

const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  'store/timeout': 'Check that the disk has free space, then reload the page. Nothing already stored was lost.',
  'store/quota-exceeded': 'Free disk space or remove cached models in Settings, then try again. Nothing already stored was lost.',
  'store/upgrade-blocked': 'Close the other tabs of Engram Vault, then reload this one.',
  'worker/timeout': 'Try again. If it keeps happening, reload the page.',
  'worker/crashed': 'It has been restarted; try again. If it keeps happening, reload the page.',
  'import/unknown-format':
    'Export the archive again from the service (ChatGPT, Claude, Gemini, ...) and drop the file it gives you, or paste the conversation as text.',
  'import/truncated': 'The file is incomplete; download the export again.',
  'import/encoding': 'Save the file as UTF-8 (or UTF-16 with a BOM) and try again.',
  'import/too-large': 'Split the archive, or import it with the command-line tool (npm run engram -- import).',
  'import/unsafe-archive': 'This archive is not a genuine export. Download the export again from the service.',
  'vault/wrong-passphrase': 'Type the passphrase again. If it is right, the file was changed or damaged: use another copy.',
  'vault/newer-format': 'Update Engram Vault (reload the page when online) and import the file again.',
  'vaults/in-use': 'Close the other tabs that have this vault open (or switch them to another vault), then try again.',
  'capture/unconfirmed':
    'Nothing was stored. Read on the preview what the capture would change in that conversation, confirm it there, or discard the capture.',
  'curate/gate-refused': 'Nothing was kept. Split the candidate into its claims (S) or edit it (E), then keep it.',
  'llm/unavailable': 'Recall and extraction keep working without a language model; choose a model in Settings to enable it.',
};

const FAMILY_STEP: Record<Family, string> = {
  store: 'Reload the page and try again. Nothing already stored was lost.',
  job: 'The job will be retried; failed jobs are listed in Settings, where you can try them again.',
  worker: 'Try again. If it keeps happening, reload the page.',
  cli: 'Run `npm run engram -- --help` for usage.',
  input: 'Check the input and try again.',
  curate: 'Nothing was changed. Look at the candidate again and try once more.',
  import: 'Nothing from this file was stored and your vault is unchanged. Check the file and try again.',
  index: 'The index will be rebuilt; search keeps working meanwhile.',
  embed: 'Search falls back to the lexical embedder meanwhile.',
  llm: 'The step ran without a language model instead.',
  recall: 'Try again; if it keeps happening, rebuild the index in Settings.',
  vault: 'Nothing was imported. Check the file and try again.',
  capture: 'Copy the conversation and paste it on the Capture page instead.',
  vaults: 'Nothing was changed. Check the vault list and try again.',
  agent: 'Nothing was changed in the vault. Check the tool arguments and try again.',
  internal: 'Reload the page. If it happens again, export your vault in Settings to keep a copy.',
};

const TITLE: Record<Family, string> = {
  store: 'Storage problem',
  job: 'Background job failed',
  worker: 'Background worker problem',
  cli: 'Command problem',
  input: 'Invalid input',
  curate: 'Not kept',
  import: 'Import failed',
  index: 'Index problem',
  embed: 'Embedding problem',
  llm: 'Language model problem',
  recall: 'Recall problem',
  vault: 'Vault file problem',
  capture: 'Capture problem',
  vaults: 'Vault problem',
  agent: 'Agent request refused',
  internal: 'Something went wrong',
};

function familyOf(code: ErrorCode): Family {
  return code.slice(0, code.indexOf('/')) as Family;
}

export function describeError(thrown: unknown): ErrorText & { error: VaultError } {
  const error = toVaultError(thrown);
  const family = familyOf(error.code);
  const sentence = /[.!?]$/.test(error.message.trim()) ? error.message.trim() : `${error.message.trim()}.`;
  return {
    error,
    title: TITLE[family] ?? TITLE.internal,
    sentence,
    nextStep: NEXT_STEP[error.code] ?? FAMILY_STEP[family] ?? FAMILY_STEP.internal,
  };
}
