import { err, ok, vaultError, type Result } from '../errors';
import { extractionOutput, outputUnit } from './schema';
import type { RawUnit } from './units';
import type { ExtractionWindow } from './windows';

/**
 * Reads a model's JSON answer into raw units, mapping prompt labels ("m2") back to message ids.
 * The envelope must parse and hold a `units` array, or the whole answer is invalid; a single
 * unit of the wrong shape is passed on as malformed for the validator to reject with its reason.
 */
export function parseExtractionOutput(answer: string, window: ExtractionWindow): Result<RawUnit[]> {
  let json: unknown;
  try {
    json = JSON.parse(stripFence(answer));
  } catch {
    return err(vaultError('llm/invalid-output', 'The extraction answer is not valid JSON.', { excerpt: answer.slice(0, 200) }));
  }
  const envelope = extractionOutput.safeParse(json);
  if (!envelope.success) {
    return err(
      vaultError('llm/invalid-output', 'The extraction answer does not match the schema (no "units" array).', {
        issues: envelope.error.issues.slice(0, 5).map((i) => i.message),
      }),
    );
  }
  const idOf = new Map(window.messages.map((m) => [m.label, m.context ? `context:${m.id}` : m.id]));
  const units = envelope.data.units.map((item): RawUnit => {
    const unit = outputUnit.safeParse(item);
    if (!unit.success) return { kind: undefined, category: undefined, text: undefined, sourceMessageIds: undefined };
    const sources = Array.isArray(unit.data.sources) ? unit.data.sources : [unit.data.sources];
    return {
      kind: unit.data.kind,
      category: unit.data.category,
      text: unit.data.text,
      sourceMessageIds: sources.map((s) => (typeof s === 'string' ? (idOf.get(s) ?? s) : s)),
    };
  });
  return ok(units);
}

function stripFence(answer: string): string {
  const fence = /```(?:json)?\s*([\s\S]*?)```/iu.exec(answer);
  return (fence?.[1] ?? answer).trim();
}
