// js-yaml ships no types and @types/js-yaml is not installed; this is the one function the
// packaging test uses (electron-builder itself parses electron-builder.yml with js-yaml).
declare module 'js-yaml' {
  export function load(text: string, options?: { filename?: string }): unknown;
}
