/**
 * The version of the extraction pipeline (segmentation, rules, prompt, validator). Every candidate
 * stores the version that produced it (`review.extractorVersion`); a candidate without one came
 * from version 1. Bump it when the same conversation would yield different candidates, so the
 * conversations extracted by an older version can be found and extracted again.
 *
 * 1: the first rule-based extractor and prompt (cue phrases per sentence, long units cut).
 * 2: issue 13: labelled-corpus rules, adoption of the assistant's suggestion, long units split.
 * 3: issue 13 round 4: approvals ("X, fine."), verbless picks of what the assistant offered,
 *    reasons set aside, more splices (docs/EXTRACT.md).
 * 4: issue 13 round 5: other authors' phrasings (objects put first, present-tense tasks, reasons
 *    and longer splices split off, list lead-ins dropped, numbered list items read as options).
 * 5: issue 13 round 6: contractions typed without apostrophes, refusals in a few words, keywords
 *    no longer taken for code ("go with ...", "let me ..."), lettered list items, unlisted
 *    imperatives in the assistant's advice.
 * 6: issue 13 round 7: quoted lines ("> ...") are no unit of the person's, "X: no" refusals,
 *    short headings over a list dropped, "Budget: £900" read as a limit.
 * 7: two misses of a real export: "Let me check ..." is the person's next step (an Action Item),
 *    not an imperative choice; an example given ("For example, X - should we ...?") adopts nothing.
 * 8: a list item's number left at a unit's start by a split after a colon is dropped
 *    ("... approaches: 1) Read files in chunks" -> "Read files in chunks").
 * 9: a user's request to the assistant ("Tell me a joke.", "Give me three names for ...", "Show me
 *    how to ...") is a Topic, what they asked about, not an Action Item (a real export's Inbox).
 */
export const EXTRACTOR_VERSION = 9;

/** The version a stored candidate came from (records written before versions existed are version 1). */
export function extractorVersionOf(review: { extractorVersion?: number } | undefined): number {
  return review?.extractorVersion ?? 1;
}
