/**
 * `npm run model:build [dir]`: converts USE-lite into a transformers.js model folder.
 * Default target: `./.cache/models/cairn/use-lite`.
 */
import { resolve } from 'node:path';
import { buildUseLiteInto, isCurrentBuild } from './build.js';

const target = resolve(process.argv[2] ?? '.cache/models/cairn/use-lite');
const started = performance.now();
const wasCurrent = isCurrentBuild(target);
buildUseLiteInto(target);
const ms = Math.round(performance.now() - started);
console.log(wasCurrent ? `${target}: already current` : `${target}: built in ${ms} ms`);
