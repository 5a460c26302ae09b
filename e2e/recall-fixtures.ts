/** Transcripts for the Recall specs: the same answer in two conversations (the funnel's dedup drops one). */
export const MOSS_ANSWER = 'Moss prefers shade, constant moisture and slightly acidic, compacted soil';

export const MOSS_TRANSCRIPT = [
  'User: What soil does moss need in the Japanese garden behind the tea house?',
  `Assistant: ${MOSS_ANSWER}; keep fallen leaves off it in autumn so it does not rot.`,
  'User: How often should the moss be watered during a dry summer week?',
  'Assistant: Mist it daily in dry weather and never flood it, morning is best.',
].join('\n');

export const MOSS_TEA = [
  'User: Remind me again what the moss in the tea garden wants from its soil please.',
  `Assistant: ${MOSS_ANSWER}; keep fallen leaves off it in autumn so it does not rot.`,
  'User: Which stones should line the path to the tea house entrance?',
  'Assistant: Use flat granite stepping stones set slightly apart, with gravel between them.',
].join('\n');

/** A transcript with a named model speaker: a prompt that names it is about what it said (the subject boost). */
export const CLAUDE_TRANSCRIPT = [
  "User: I'm building an irrigation controller for the garden beds. Which database should the schedules live in?",
  "Claude: For a small controller with no server, I'd suggest SQLite: one file, no daemon, and it survives power loss.",
  "User: Your SQLite idea sounds right. We'll go with SQLite for the irrigation schedules, not Postgres.",
  'Claude: Good choice. Keep the schedule table small: zone, start time, duration and days of the week.',
].join('\n');
