/**
 * The headless workbench's folder browser (GET /api/browse): directories below the home folder.
 * Declared as schemas, the types read from them (json-schema.ts).
 */
import type { FromSchema, Schema } from './json-schema.js';

/** What adding the directory would mean (the workbench words each as a badge). */
export const BROWSE_MARKS = [
  'data_folder',
  'contains_data_folder',
  'indexed',
  'inside_indexed',
  'contains_indexed',
  'secret',
  'default_exclude',
  'outside_home',
] as const;
export type BrowseMark = (typeof BROWSE_MARKS)[number];

/** URL query parameters; no path: the home folder. */
export const BROWSE_REQUEST_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string', description: 'The directory to list (`~` is the home folder).' } },
  additionalProperties: false,
} as const satisfies Schema;
export type BrowseRequest = FromSchema<typeof BROWSE_REQUEST_SCHEMA>;

export const BROWSE_ENTRY_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    path: { type: 'string' },
    hidden: { type: 'boolean' },
    readable: { type: 'boolean', description: 'Cairn may list and read it.' },
    marks: { type: 'array', items: { enum: BROWSE_MARKS } },
  },
  required: ['name', 'path', 'hidden', 'readable', 'marks'],
  additionalProperties: false,
} as const satisfies Schema;
export type BrowseEntry = FromSchema<typeof BROWSE_ENTRY_SCHEMA>;

export const BROWSE_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'The directory listed (its real path).' },
    home: { type: 'string' },
    parent: { type: ['string', 'null'], description: 'null at the home folder: the browser goes no higher.' },
    entries: { type: 'array', items: BROWSE_ENTRY_SCHEMA },
    truncated: { type: 'boolean', description: 'More directories than are listed (type the path instead).' },
  },
  required: ['path', 'home', 'parent', 'entries', 'truncated'],
  additionalProperties: false,
} as const satisfies Schema;
export type BrowseResponse = FromSchema<typeof BROWSE_RESPONSE_SCHEMA>;
