/**
 * A prompt file of an evaluation (`{ "prompts": [...] }`, other keys ignored), read against the schema
 * of one prompt; a file that does not match says which shape it should have and where it does not.
 */
import { z } from 'zod';
import { err, ok, vaultError, type Result } from '../../core/errors';

export function parsePromptFile<T extends z.ZodType>(data: unknown, prompt: T, shape: string): Result<z.infer<T>[]> {
  const parsed = z.object({ prompts: z.array(prompt).min(1) }).safeParse(data);
  if (parsed.success) return ok(parsed.data.prompts);
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return err(
    vaultError('input/invalid', `The prompt file is not { "prompts": [${shape}, ...] } (${where}${issue?.message ?? 'invalid'}).`),
  );
}
