/**
 * English stop words for chat text: function words that carry no topic, so they neither score nor
 * cost a walk over a posting list holding most of the corpus. Negations ("not", "no") stay: they
 * change meaning. Kept small on purpose; chat-specific fillers ("hey", "yeah") are included.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just let me more most my myself nor of off on once only or other ought our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself yourselves s t d ll m re ve im ive id youre hey hi yeah yes oh ok okay also really'
  ).split(' '),
);
