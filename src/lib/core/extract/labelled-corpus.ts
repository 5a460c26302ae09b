import { z } from 'zod';
import { vaultError, type VaultError } from '../errors';
import { CATEGORIES, type Category, type ExtractionMessage } from './units';

/**
 * The labelled extraction corpus (tests/fixtures/extraction, format in its README): one
 * conversation per JSON file, every turn with the units a careful person would keep from it.
 */
const unit = z
  .object({
    category: z.enum(CATEGORIES),
    text: z.string().min(1),
    adopts: z.string().optional(),
    note: z.string().optional(),
  })
  .strict();

const turn = z
  .object({
    id: z.string().min(1),
    role: z.enum(['user', 'assistant']),
    text: z.string(),
    units: z.array(unit),
  })
  .strict();

const conversation = z
  .object({
    id: z.string().min(1),
    title: z.string(),
    turns: z.array(turn).min(1),
  })
  .strict();

export type LabelledConversation = z.infer<typeof conversation>;
export type LabelledTurn = z.infer<typeof turn>;

/** A gold unit with the turn it cites. */
export interface GoldUnit {
  category: Category;
  text: string;
  turnId: string;
  role: 'user' | 'assistant';
  adopts: string | null;
}

export type CorpusResult = { ok: true; value: LabelledConversation } | { ok: false; error: VaultError };

/** Checks one parsed file: its shape, unique turn ids, Decisions only on user turns, `adopts` naming an earlier assistant turn. */
export function parseLabelledConversation(data: unknown, source: string): CorpusResult {
  const parsed = conversation.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    return { ok: false, error: vaultError('input/invalid', `${source}: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}.`) };
  }
  const value = parsed.data;
  const seen = new Map<string, LabelledTurn>();
  for (const t of value.turns) {
    if (seen.has(t.id)) return { ok: false, error: vaultError('input/invalid', `${source}: turn id "${t.id}" is used twice.`) };
    for (const u of t.units) {
      if (u.category === 'Decisions' && t.role !== 'user') {
        return {
          ok: false,
          error: vaultError('input/invalid', `${source}: turn ${t.id} is the assistant's; a Decision cites a user turn.`),
        };
      }
      if (u.adopts !== undefined && seen.get(u.adopts)?.role !== 'assistant') {
        return {
          ok: false,
          error: vaultError('input/invalid', `${source}: turn ${t.id} adopts "${u.adopts}", not an earlier assistant turn.`),
        };
      }
    }
    seen.set(t.id, t);
  }
  return { ok: true, value };
}

export function goldUnits(c: LabelledConversation): GoldUnit[] {
  return c.turns.flatMap((t) =>
    t.units.map((u) => ({ category: u.category, text: u.text, turnId: t.id, role: t.role, adopts: u.adopts ?? null })),
  );
}

export function corpusMessages(c: LabelledConversation): ExtractionMessage[] {
  return c.turns.map((t) => ({ id: t.id, role: t.role, text: t.text, createdAt: null }));
}
