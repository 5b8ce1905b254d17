import { ValidationError } from '@arclight/core';
import { FORMAT_NAMES } from '../format-names.js';
import { artFormat } from './art.js';
import type { ExportFormat } from './format.js';
import { openaiDpoFormat, openaiSftFormat } from './openai.js';
import { tripletsFormat } from './triplets.js';
import { trlKtoFormat, trlPromptFormat, trlSftFormat, trlSftTokensFormat } from './trl.js';
import { trlDpoFormat } from './trl-dpo.js';
import { verlFormats } from './verl.js';
import { verlRlhfFormat, verlSftFormat } from './verl-chat.js';

/** Every export format, by name (the CLI's `--format` choices, in this order). */
export const FORMATS: readonly ExportFormat[] = [
  tripletsFormat,
  ...verlFormats,
  verlSftFormat,
  verlRlhfFormat,
  trlSftFormat,
  trlSftTokensFormat,
  trlDpoFormat,
  trlKtoFormat,
  trlPromptFormat,
  artFormat,
  openaiSftFormat,
  openaiDpoFormat,
] as ExportFormat[];

if (FORMATS.map((f) => f.name).join() !== FORMAT_NAMES.join()) {
  throw new Error('format-names.ts is out of date with the registered formats');
}

export function formatByName(name: string): ExportFormat {
  const format = FORMATS.find((f) => f.name === name);
  if (!format) {
    throw new ValidationError(
      `format: unknown format "${name}"; expected one of ${FORMAT_NAMES.join(', ')}`,
    );
  }
  return format;
}
