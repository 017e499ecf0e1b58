/** Placeholder until the engine's composition root lands; replaced by the real benchmark. */
import { SkipError, type Benchmark } from '../lib/benchmark.js';
import { engineModule } from '../lib/engine.js';

export const mcpBenchmark: Benchmark = {
  name: 'mcp',
  description: 'mcp',
  async run(ctx) {
    await engineModule(ctx.root);
    throw new SkipError('not written yet');
  },
};
