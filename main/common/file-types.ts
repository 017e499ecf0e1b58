/**
 * What a search's `file_types` filter may name: a kind of chunk, or an extension Cairn recognises.
 * An unknown name ("banana") is refused rather than silently matching nothing; any other
 * extension is reachable with a glob (`*.banana`).
 */

export const FILE_KINDS = ['text', 'markdown', 'code', 'html', 'pdf', 'docx', 'data'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/**
 * Extensions with a parser or a language of their own (test/contract checks the engine's table
 * is covered), plus the plain-text ones people filter by.
 */
export const FILE_EXTENSIONS = [
  'md', 'markdown', 'mdx', 'mdown', 'html', 'htm', 'xhtml', 'pdf', 'docx',
  'json', 'jsonc', 'json5', 'jsonl', 'ndjson', 'yaml', 'yml', 'toml', 'csv', 'tsv', 'xml', 'ini', 'cfg', 'properties', 'env',
  'ts', 'mts', 'cts', 'tsx', 'js', 'mjs', 'cjs', 'jsx', 'py', 'pyi', 'pyw', 'go', 'rs', 'java',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'ipp', 'cs', 'rb', 'rake', 'php', 'sh', 'bash', 'zsh',
  'kt', 'kts', 'swift', 'scala', 'lua', 'r', 'sql', 'css', 'scss', 'less', 'vue', 'svelte', 'dart', 'ex', 'exs', 'erl',
  'hs', 'ml', 'clj', 'pl', 'pm', 'm', 'mm', 'zig', 'nim', 'jl', 'ps1', 'fs', 'groovy', 'gradle', 'tf', 'proto',
  'graphql', 'gql', 'cmake',
  'txt', 'text', 'log', 'rst', 'adoc', 'asciidoc', 'org', 'tex', 'bib', 'srt', 'vtt', 'eml', 'diff', 'patch',
] as const;

/** Kinds first, then extensions; a name that is both (`pdf`, `markdown`) once. */
export const FILE_TYPES: readonly string[] = [...new Set<string>([...FILE_KINDS, ...FILE_EXTENSIONS])];
