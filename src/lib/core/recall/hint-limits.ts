/**
 * How many hints a chunk or note gets (the issue's five), apart from the rules (hints.ts) so the
 * model's hints (llm-hints.ts, in the extraction job) do not bring the rules' verb table with them.
 */
export const HINTS_PER_DOC = 5;
