/**
 * Gemini Apps in Google Takeout "My Activity" (JSON): a flat list of activities, newest first.
 * There are no conversations in it, only prompts, each with the response as HTML
 * (`safeHtmlItem`), so each prompt becomes a conversation of one exchange. Activities that are
 * not prompts ("Created Gem ...", "Used ...") carry no conversation text and are skipped with a
 * reason. The id comes from the activity time and title, which Takeout keeps stable.
 */
import { htmlToText } from '../text/html-to-text';
import { finishConversation, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, clip, isRecord, str } from './read';
import { derivedId } from './stable-id';
import { toMillis } from './time';

const PROMPTED = /^Prompted\s+/u;

export function parseGeminiActivity(value: unknown, ctx: ParseContext): ElementResult {
  if (!isRecord(value)) return skip(`activity #${ctx.index + 1}`, 'it is not an activity object');
  const title = str(value, 'title') ?? '';
  const what = `activity "${clip(title)}"`;
  const html = (arr(value, 'safeHtmlItem') ?? []).map((h) => str(h, 'html')).filter((h): h is string => h !== undefined);
  const prompted = PROMPTED.test(title);
  if (!prompted && html.length === 0) return skip(what, 'it is an account activity, not a prompt: it holds no conversation text');

  const notes: string[] = [];
  if (!prompted) notes.push('the activity title does not start with "Prompted"; the whole title was kept as the prompt');
  const prompt = prompted ? title.replace(PROMPTED, '') : title;
  const files = (arr(value, 'attachedFiles') ?? []).filter((f): f is string => typeof f === 'string');
  const subtitles = (arr(value, 'subtitles') ?? []).filter(isRecord);
  const links = subtitles.filter((s) => str(s, 'url') !== undefined);
  for (const s of subtitles) {
    const name = str(s, 'name');
    if (name && str(s, 'url') === undefined && !files.includes(name)) files.push(name);
  }
  const createdAt = toMillis(str(value, 'time'));
  const userText = [prompt, ...files.map((f) => `[file: ${f}]`)].join('\n');
  const messages: ParsedMessage[] = [
    {
      externalId: 'prompt',
      role: 'user',
      text: userText,
      createdAt,
      parentExternalId: null,
      onVisiblePath: true,
      hidden: false,
      contentType: 'text',
    },
  ];
  if (html.length > 0 || links.length > 0) {
    const sources = links.map((l) => `- ${str(l, 'name') ?? 'link'}: ${str(l, 'url')}`);
    const text = [html.map(htmlToText).join('\n\n'), sources.length > 0 ? `Sources:\n${sources.join('\n')}` : '']
      .filter((s) => s !== '')
      .join('\n\n');
    messages.push({
      externalId: 'response',
      role: 'assistant',
      text,
      createdAt,
      parentExternalId: 'prompt',
      onVisiblePath: true,
      hidden: false,
      contentType: 'html',
    });
  }
  return {
    conversation: finishConversation({
      source: 'gemini',
      externalId: derivedId('gemini-activity', str(value, 'time') ?? null, title),
      title: clip(prompt, 80),
      createdAt,
      updatedAt: createdAt,
      messages,
      notes,
    }),
  };
}
