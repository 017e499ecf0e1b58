import type { ChunkKind } from '../types.js';

/** Grammar file names in @vscode/tree-sitter-wasm (C uses the C++ grammar, a superset for our needs). */
export type Grammar =
  'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'cpp' | 'c-sharp' | 'ruby' | 'php' | 'bash';

interface FileType {
  kind: ChunkKind;
  language?: string;
  grammar?: Grammar;
}

const code = (language: string, grammar?: Grammar): FileType => ({ kind: 'code', language, grammar });

const BY_EXT: Record<string, FileType> = {
  md: { kind: 'markdown' },
  markdown: { kind: 'markdown' },
  mdx: { kind: 'markdown' },
  mdown: { kind: 'markdown' },
  html: { kind: 'html' },
  htm: { kind: 'html' },
  xhtml: { kind: 'html' },
  pdf: { kind: 'pdf' },
  docx: { kind: 'docx' },
  json: { kind: 'data', language: 'json' },
  jsonc: { kind: 'data', language: 'json' },
  json5: { kind: 'data', language: 'json' },
  jsonl: { kind: 'data', language: 'json' },
  ndjson: { kind: 'data', language: 'json' },
  yaml: { kind: 'data', language: 'yaml' },
  yml: { kind: 'data', language: 'yaml' },
  toml: { kind: 'data', language: 'toml' },
  csv: { kind: 'data', language: 'csv' },
  tsv: { kind: 'data', language: 'tsv' },
  xml: { kind: 'data', language: 'xml' },
  ini: { kind: 'data', language: 'ini' },
  cfg: { kind: 'data', language: 'ini' },
  properties: { kind: 'data', language: 'properties' },
  env: { kind: 'data', language: 'dotenv' },
  ts: code('typescript', 'typescript'),
  mts: code('typescript', 'typescript'),
  cts: code('typescript', 'typescript'),
  tsx: code('typescript', 'tsx'),
  js: code('javascript', 'javascript'),
  mjs: code('javascript', 'javascript'),
  cjs: code('javascript', 'javascript'),
  jsx: code('javascript', 'javascript'),
  py: code('python', 'python'),
  pyi: code('python', 'python'),
  pyw: code('python', 'python'),
  go: code('go', 'go'),
  rs: code('rust', 'rust'),
  java: code('java', 'java'),
  c: code('c', 'cpp'),
  h: code('c', 'cpp'),
  cc: code('cpp', 'cpp'),
  cpp: code('cpp', 'cpp'),
  cxx: code('cpp', 'cpp'),
  hpp: code('cpp', 'cpp'),
  hh: code('cpp', 'cpp'),
  hxx: code('cpp', 'cpp'),
  ipp: code('cpp', 'cpp'),
  cs: code('csharp', 'c-sharp'),
  rb: code('ruby', 'ruby'),
  rake: code('ruby', 'ruby'),
  php: code('php', 'php'),
  sh: code('bash', 'bash'),
  bash: code('bash', 'bash'),
  zsh: code('bash', 'bash'),
  // Code without a bundled grammar: line windows.
  kt: code('kotlin'),
  kts: code('kotlin'),
  swift: code('swift'),
  scala: code('scala'),
  lua: code('lua'),
  r: code('r'),
  sql: code('sql'),
  css: code('css'),
  scss: code('scss'),
  less: code('less'),
  vue: code('vue'),
  svelte: code('svelte'),
  dart: code('dart'),
  ex: code('elixir'),
  exs: code('elixir'),
  erl: code('erlang'),
  hs: code('haskell'),
  ml: code('ocaml'),
  clj: code('clojure'),
  pl: code('perl'),
  pm: code('perl'),
  m: code('objective-c'),
  mm: code('objective-c'),
  zig: code('zig'),
  nim: code('nim'),
  jl: code('julia'),
  ps1: code('powershell'),
  fs: code('fsharp'),
  groovy: code('groovy'),
  gradle: code('groovy'),
  tf: code('terraform'),
  proto: code('protobuf'),
  graphql: code('graphql'),
  gql: code('graphql'),
  cmake: code('cmake'),
};

const BY_NAME: Record<string, FileType> = {
  makefile: code('make'),
  gnumakefile: code('make'),
  dockerfile: code('dockerfile'),
  containerfile: code('dockerfile'),
  rakefile: code('ruby', 'ruby'),
  gemfile: code('ruby', 'ruby'),
  jenkinsfile: code('groovy'),
  'cmakelists.txt': code('cmake'),
  '.bashrc': code('bash', 'bash'),
  '.zshrc': code('bash', 'bash'),
  '.profile': code('bash', 'bash'),
};

const TEXT: FileType = { kind: 'text' };

export function fileTypeOf(path: string): FileType {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return TEXT;
  return BY_EXT[name.slice(dot + 1)] ?? TEXT;
}

/** The chunk kind a file gets (anything unrecognised that passed the binary checks is text). */
export function kindOf(path: string): ChunkKind {
  return fileTypeOf(path).kind;
}

/** Programming or data language of a file (`typescript`, `python`, `yaml`...), if any. */
export function languageOf(path: string): string | undefined {
  return fileTypeOf(path).language;
}
