/** Placeholder until the engine's composition root lands; replaced by the real benchmark. */
import { SkipError, type Benchmark } from '../lib/benchmark.js';
import { engineModule } from '../lib/engine.js';

export const startupBenchmark: Benchmark = {
  name: 'startup',
  description: 'startup',
  async run(ctx) {
    await engineModule(ctx.root);
    throw new SkipError('not written yet');
  },
};
