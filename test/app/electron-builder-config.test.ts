// electron-builder.yml checked against electron-builder's own JSON schema, parsed with the YAML
// parser electron-builder uses (js-yaml), plus the project's packaging rules the schema cannot
// express: native modules unpacked from the asar, the built-in model shipped, fuses set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { load } from 'js-yaml';
import AjvModule from 'ajv';

const root = new URL('../../', import.meta.url);
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
const config = load(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, unknown>;

// ajv is CommonJS; under NodeNext its default export arrives as the module object.
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as new (
  o: object,
) => {
  compile(s: object): ((d: unknown) => boolean) & { errors?: unknown[] | null };
};
// strict: false because the schema carries electron-builder's own annotation keywords.
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

test('electron-builder.yml validates against electron-builder 26 scheme.json', () => {
  const ok = validate(config);
  assert.equal(ok, true, JSON.stringify(validate.errors, null, 2));
});

test('the schema check can fail: an unknown key and a wrong type are rejected', () => {
  assert.equal(validate({ ...config, notAnOption: true }), false);
  assert.equal(validate({ ...config, electronFuses: { runAsNode: 'no' } }), false);
});

test('targets: AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
  const targets = (os: string) => (config[os] as { target: string[] }).target;
  assert.deepEqual(targets('linux').sort(), ['AppImage', 'deb']);
  assert.deepEqual(targets('mac'), ['dmg']);
  assert.deepEqual(targets('win'), ['nsis']);
});

test('native modules are unpacked from the asar', () => {
  const unpack = config.asarUnpack as string[];
  for (const mod of ['@lancedb', 'onnxruntime-node', '@parcel/watcher', 'sharp']) {
    assert.ok(
      unpack.some((p) => p.startsWith(`node_modules/${mod}/`)),
      `${mod} missing from asarUnpack`,
    );
  }
  assert.ok(unpack.includes('**/*.node'));
});

test('the built-in model ships as an extra resource (resources/models -> models)', () => {
  const extra = config.extraResources as { from: string; to: string }[];
  assert.ok(extra.some((e) => e.from === 'resources/models' && e.to === 'models'));
});

test('fuses: no RunAsNode, no NODE_OPTIONS, asar integrity and asar-only loading', () => {
  const f = config.electronFuses as Record<string, boolean>;
  assert.equal(f.runAsNode, false);
  assert.equal(f.enableNodeOptionsEnvironmentVariable, false);
  assert.equal(f.enableNodeCliInspectArguments, false);
  assert.equal(f.enableEmbeddedAsarIntegrityValidation, true);
  assert.equal(f.onlyLoadAppFromAsar, true);
  assert.equal(f.grantFileProtocolExtraPrivileges, false);
});

test('the packaged files include what the shell loads: compiled main, preload and the workbench', () => {
  const files = config.files as string[];
  for (const p of ['dist/main/**', 'dist/preload/**', 'renderer/dist/**', 'package.json'])
    assert.ok(files.includes(p), p);
});
