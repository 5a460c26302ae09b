/**
 * LoCoMo samples as a vault would hold them: one conversation per session, dated by
 * `session_N_date_time`, every turn a message that remembers its `dia_id`. Evidence ids are
 * normalized here because the dataset has malformed ones ("D8:6; D9:17", "D:11:26", "D30:05", "D").
 * Pure: the caller reads the file (LoCoMo is licensed for non-commercial use and never bundled).
 */
import { z } from 'zod';
import { err, ok, vaultError, type Result } from '../errors';
import type { Role } from '../records';

const turnSchema = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() }).loose();
const qaSchema = z
  .object({
    question: z.string(),
    evidence: z.array(z.string()).default([]),
    category: z.number().int(),
    answer: z.unknown().optional(),
    adversarial_answer: z.unknown().optional(),
  })
  .loose();
const sampleSchema = z.object({ sample_id: z.string(), conversation: z.record(z.string(), z.unknown()), qa: z.array(qaSchema) }).loose();

export type LocomoTurn = z.infer<typeof turnSchema>;
export type LocomoQa = z.infer<typeof qaSchema>;
export type LocomoSample = z.infer<typeof sampleSchema>;

export function parseLocomo(json: unknown): Result<LocomoSample[]> {
  const parsed = z.array(sampleSchema).safeParse(json);
  if (!parsed.success) {
    return err(
      vaultError('input/invalid', 'This is not a LoCoMo file (an array of samples with conversation and qa).', parsed.error.issues[0]),
    );
  }
  return ok(parsed.data);
}

export interface EvalMessage {
  id: string;
  conversationId: string;
  role: Role;
  speaker: string;
  /** The turn's text; a shared photo is kept as its caption, in brackets. */
  text: string;
  createdAt: number | null;
  ordinal: number;
  diaId: string;
}

export interface EvalConversation {
  id: string;
  title: string;
  createdAt: number | null;
  messages: EvalMessage[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> ms (UTC); null when the shape is unknown. */
export function parseSessionDate(text: string): number | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/iu.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

const EVIDENCE_ID = /^D:?(\d+)[:.-](\d+)$/u;

/**
 * Canonical evidence ids ("D<session>:<turn>", no leading zeros). An entry may hold several ids
 * separated by ";", "," or spaces; what cannot be read is returned in `malformed`.
 */
export function normalizeEvidenceIds(raw: readonly string[]): { ids: string[]; malformed: string[] } {
  const ids: string[] = [];
  const malformed: string[] = [];
  for (const entry of raw) {
    for (const piece of entry.split(/[;,]+|\s+(?=D)/iu)) {
      const token = piece.replace(/\s+/gu, '').toUpperCase();
      if (token.length === 0) continue;
      const m = EVIDENCE_ID.exec(token);
      if (m) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
      else malformed.push(piece.trim());
    }
  }
  return { ids: [...new Set(ids)], malformed };
}

/** Canonical form of a turn's own dia_id (the same rules as evidence ids). */
export function canonicalDiaId(diaId: string): string {
  return normalizeEvidenceIds([diaId]).ids[0] ?? diaId.trim();
}

function sessionNumbers(conversation: Record<string, unknown>): number[] {
  return Object.keys(conversation)
    .map((k) => /^session_(\d+)$/u.exec(k)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export function sampleToConversations(sample: LocomoSample): EvalConversation[] {
  const conv = sample.conversation;
  const speakerA = typeof conv.speaker_a === 'string' ? conv.speaker_a : null;
  return sessionNumbers(conv).flatMap((n) => {
    const turns = z.array(turnSchema).safeParse(conv[`session_${n}`]);
    if (!turns.success) return [];
    const dateText = typeof conv[`session_${n}_date_time`] === 'string' ? (conv[`session_${n}_date_time`] as string) : '';
    const createdAt = parseSessionDate(dateText);
    const id = `${sample.sample_id}/session-${n}`;
    const messages = turns.data.map((turn, ordinal): EvalMessage => {
      const diaId = canonicalDiaId(turn.dia_id);
      const caption = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : '';
      return {
        id: `${sample.sample_id}/${diaId}`,
        conversationId: id,
        role: speakerA === null || turn.speaker === speakerA ? 'user' : 'assistant',
        speaker: turn.speaker,
        text: `${turn.text}${caption}`,
        createdAt,
        ordinal,
        diaId,
      };
    });
    return [{ id, title: `${sample.sample_id} session ${n}${dateText ? ` (${dateText})` : ''}`, createdAt, messages }];
  });
}

/** The text a turn is indexed and packaged as: the speaker's name carries who said it. */
export function turnText(message: Pick<EvalMessage, 'speaker' | 'text'>): string {
  return `${message.speaker}: ${message.text}`;
}
