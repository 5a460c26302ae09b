/** The `engram recall` result as JSON (the issue's shape) and as text for people. */
import { formatDate } from '../../lib/core/recall/package-format';
import type { DroppedCandidate, GateStatus, ScoredCandidate } from '../../lib/core/recall/types';
import type { RecallAnswer } from '../../lib/services/recall/recall-service';

const TEXT_PREVIEW = 300;

function clip(text: string, max = TEXT_PREVIEW): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function item(c: ScoredCandidate) {
  const { record, signals, scores } = c;
  return {
    ref: record.id,
    tier: record.tier,
    source: record.sourceTitle,
    date: record.date === null ? null : formatDate(record.date),
    text: clip(record.text),
    scores: { relevance: scores.relevance, provenance: scores.provenance, recency: scores.recency, score: scores.score },
    signals: { bm25Rank: signals.bm25Rank, vectorRank: signals.vectorRank, vectorSimilarity: signals.vectorSimilarity, rrf: signals.rrf },
  };
}

function dropped(d: DroppedCandidate) {
  return { ...item(d.candidate), stage: d.stage, reason: d.reason };
}

function gateJson(gate: GateStatus) {
  return gate.ran ? { ...gate } : { ran: false, reason: gate.reason, message: gate.message, ...(gate.error ? { error: gate.error } : {}) };
}

export interface RecallJsonContext {
  embedder: string;
  vectors: string;
  target: string;
  vault: { conversations: number; messages: number; units: number };
}

export function recallJson({ result, package: pkg }: RecallAnswer, ctx: RecallJsonContext) {
  return {
    prompt: result.prompt,
    embedder: ctx.embedder,
    vectors: ctx.vectors,
    intent: { text: result.intent.text, source: result.intent.source },
    gate: gateJson(result.gate),
    package: { format: pkg.format, target: ctx.target, tokens: pkg.tokens, budget: pkg.budget, text: pkg.text },
    kept: result.items.map((c, rank) => ({ rank: rank + 1, ...item(c), gateReason: c.gateReason })),
    dropped: result.dropped.map(dropped),
    holdsNothing: result.holdsNothing
      ? {
          emptyAt: result.holdsNothing.emptyAt,
          message: result.holdsNothing.message,
          closestMisses: result.holdsNothing.closestMisses.map(dropped),
        }
      : null,
    vault: ctx.vault,
    timings: result.timings,
  };
}

export function recallText({ result, package: pkg }: RecallAnswer, ctx: RecallJsonContext): string {
  const lines: string[] = [];
  if (result.holdsNothing) {
    lines.push(result.holdsNothing.message);
    for (const miss of result.holdsNothing.closestMisses) lines.push(`  closest miss ${miss.candidate.record.id}: ${miss.reason}`);
  } else lines.push(pkg.text.trimEnd());
  const byStage = new Map<string, number>();
  for (const d of result.dropped) byStage.set(d.stage, (byStage.get(d.stage) ?? 0) + 1);
  const stages = [...byStage].map(([stage, n]) => `${n} at ${stage}`).join(', ') || 'none';
  lines.push(
    '',
    `--- ${result.items.length} kept, dropped: ${stages}; package ${pkg.tokens} of ${pkg.budget} tokens (${ctx.target}, ${pkg.format})`,
    `--- gate: ${result.gate.ran ? `ran (${result.gate.llmId}): kept ${result.gate.kept}, dropped ${result.gate.dropped}` : result.gate.message}`,
    `--- intent (${result.intent.source}): ${result.intent.text}`,
    `--- ${ctx.vault.units} units from ${ctx.vault.conversations} conversations / ${ctx.vault.messages} messages; embedder ${ctx.embedder} (${ctx.vectors}); ${result.timings.totalMs.toFixed(1)} ms`,
  );
  for (const d of result.dropped.filter((x) => x.stage !== 'width'))
    lines.push(`    dropped ${d.candidate.record.id} at ${d.stage}: ${d.reason}`);
  return lines.join('\n');
}
