import { z } from 'zod';
import type { ExtractionMessage } from './units';

/**
 * LoCoMo (non-commercial research data, read from ../shared at run time, never copied into the
 * project) as extraction input: one session = one conversation, one turn = one message whose id is
 * its `dia_id`. Both speakers are people talking about themselves, so both get role `user`.
 */
const turn = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string() });
const sample = z.object({
  sample_id: z.string(),
  conversation: z.record(z.string(), z.unknown()),
  observation: z.record(z.string(), z.record(z.string(), z.array(z.tuple([z.string(), z.union([z.string(), z.array(z.string())])])))),
});

export interface GoldFact {
  text: string;
  speaker: string;
  /** dia_ids of the turns the fact came from. */
  evidence: string[];
}

export interface LocomoSession {
  id: string;
  sampleId: string;
  speakers: string[];
  date: number | null;
  messages: ExtractionMessage[];
  gold: GoldFact[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> epoch ms (UTC), or null. */
export function parseLocomoDate(text: string): number | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/iu.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf((m[5] ?? '').toLowerCase());
  if (month < 0) return null;
  const hour12 = Number(m[1]) % 12;
  const hour = (m[3] ?? '').toLowerCase() === 'pm' ? hour12 + 12 : hour12;
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** Sessions of a parsed locomo JSON file that have both turns and observations; malformed samples are skipped and counted. */
export function locomoSessions(data: unknown): { sessions: LocomoSession[]; skippedSamples: number } {
  const sessions: LocomoSession[] = [];
  let skippedSamples = 0;
  for (const item of Array.isArray(data) ? data : []) {
    const parsed = sample.safeParse(item);
    if (!parsed.success) {
      skippedSamples += 1;
      continue;
    }
    const { sample_id: sampleId, conversation, observation } = parsed.data;
    const speakers = [conversation.speaker_a, conversation.speaker_b].filter((s): s is string => typeof s === 'string');
    for (const [key, value] of Object.entries(conversation)) {
      const n = /^session_(\d+)$/u.exec(key)?.[1];
      const turns = z.array(turn).safeParse(value);
      const facts = n ? observation[`session_${n}_observation`] : undefined;
      if (!n || !turns.success || !facts) continue;
      const dateText = conversation[`session_${n}_date_time`];
      const date = typeof dateText === 'string' ? parseLocomoDate(dateText) : null;
      sessions.push({
        id: `${sampleId}/session_${n}`,
        sampleId,
        speakers,
        date,
        messages: turns.data.map((t) => ({ id: t.dia_id, role: 'user' as const, text: t.text, createdAt: date })),
        gold: Object.entries(facts).flatMap(([speaker, list]) =>
          list.map(([text, evidence]) => ({ text, speaker, evidence: Array.isArray(evidence) ? evidence : [evidence] })),
        ),
      });
    }
  }
  return { sessions, skippedSamples };
}
