/** Every limit of one import, with defaults sized for a 500 MB export on a laptop. */
import { DEFAULT_PARSER_LIMITS, type ParserLimits } from './file-parser';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip';

export type ImportLimits = ParserLimits & ZipLimits;

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { ...DEFAULT_PARSER_LIMITS, ...DEFAULT_ZIP_LIMITS };
