import { z } from 'zod';
import { CATEGORIES, UNIT_KINDS } from './units';

/**
 * The structured output of one extraction call. `sources` are the window's message labels
 * ("m1"...), enumerated in the schema so constrained decoding cannot invent a citation.
 */
export function extractionJsonSchema(labels: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      units: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: [...UNIT_KINDS] },
            category: { type: 'string', enum: [...CATEGORIES] },
            text: { type: 'string' },
            sources: { type: 'array', items: { type: 'string', enum: [...labels] }, minItems: 1 },
          },
          required: ['kind', 'category', 'text', 'sources'],
          additionalProperties: false,
        },
      },
    },
    required: ['units'],
    additionalProperties: false,
  };
}

/** The envelope must be right; each unit is checked loosely here and strictly by the validator. */
export const extractionOutput = z.object({
  units: z.array(z.unknown()),
});

export const outputUnit = z.object({
  kind: z.unknown(),
  category: z.unknown(),
  text: z.unknown(),
  sources: z.unknown(),
});

export const summaryJsonSchema: Record<string, unknown> = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};

export const summaryOutput = z.object({ summary: z.string() });
