import type { VaultError } from '../errors';
import type { ContentTypeCount, SkippedItem } from './parsed';

/**
 * The import report, per file and in total. The same numbers are shown by the UI, stored in
 * `imports` and printed by the CLI (`--json`). `messages` counts the visible thread only; messages
 * kept on other branches and hidden ones are counted in `otherBranches` and `hidden`, never in
 * `messages`. Each file's report counts only what that file added.
 */
export interface ConversationTally {
  found: number;
  stored: number;
  existing: number;
  skipped: number;
}

export interface MessageTally extends ConversationTally {
  otherBranches: number;
  hidden: number;
}

export interface FileReport {
  path: string;
  format: string | null;
  status: 'done' | 'failed' | 'cancelled';
  conversations: ConversationTally;
  messages: MessageTally;
  /** Pasted text that is not a chat, kept as resource notes. */
  resources: { found: number; stored: number; existing: number };
  redactions: number;
  redactionsByKind: Record<string, number>;
  flags: number;
  flagsByKind: Record<string, number>;
  hiddenCharactersRemoved: number;
  /** Why each skipped item was skipped. */
  skipped: SkippedItem[];
  unknownContentTypes: ContentTypeCount[];
  notes: string[];
  errors: { code: string; message: string }[];
  bytes: number;
}

export interface ImportTotals {
  conversations: ConversationTally;
  messages: MessageTally;
  resources: { found: number; stored: number; existing: number };
  redactions: number;
  flags: number;
  errors: number;
}

export interface ImportReport {
  id: string;
  startedAt: number;
  finishedAt: number;
  status: 'done' | 'partial' | 'failed' | 'cancelled';
  files: FileReport[];
  totals: ImportTotals;
}

export function emptyFileReport(path: string): FileReport {
  return {
    path,
    format: null,
    status: 'done',
    conversations: { found: 0, stored: 0, existing: 0, skipped: 0 },
    messages: { found: 0, stored: 0, existing: 0, skipped: 0, otherBranches: 0, hidden: 0 },
    resources: { found: 0, stored: 0, existing: 0 },
    redactions: 0,
    redactionsByKind: {},
    flags: 0,
    flagsByKind: {},
    hiddenCharactersRemoved: 0,
    skipped: [],
    unknownContentTypes: [],
    notes: [],
    errors: [],
    bytes: 0,
  };
}

/** A failed or cancelled file stored nothing: its stored counts become zero, found counts stay. */
export function discardStored(report: FileReport, status: 'failed' | 'cancelled', error: VaultError): FileReport {
  return {
    ...report,
    status,
    conversations: { ...report.conversations, stored: 0, existing: 0 },
    messages: { ...report.messages, stored: 0, existing: 0 },
    resources: { ...report.resources, stored: 0, existing: 0 },
    errors: [...report.errors, { code: error.code, message: error.message }],
  };
}

function add<T extends object>(into: T, more: T): void {
  for (const key of Object.keys(into) as (keyof T)[]) (into[key] as number) += more[key] as number;
}

export function totalsOf(files: readonly FileReport[]): ImportTotals {
  const totals: ImportTotals = {
    conversations: { found: 0, stored: 0, existing: 0, skipped: 0 },
    messages: { found: 0, stored: 0, existing: 0, skipped: 0, otherBranches: 0, hidden: 0 },
    resources: { found: 0, stored: 0, existing: 0 },
    redactions: 0,
    flags: 0,
    errors: 0,
  };
  for (const file of files) {
    add(totals.conversations, file.conversations);
    add(totals.messages, file.messages);
    add(totals.resources, file.resources);
    totals.redactions += file.redactions;
    totals.flags += file.flags;
    totals.errors += file.errors.length;
  }
  return totals;
}

export function overallStatus(files: readonly FileReport[]): ImportReport['status'] {
  if (files.some((f) => f.status === 'cancelled')) return 'cancelled';
  const failed = files.filter((f) => f.status === 'failed').length;
  if (failed === 0) return 'done';
  return failed === files.length ? 'failed' : 'partial';
}
