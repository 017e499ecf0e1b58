#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isErrorEnvelope } from '../../common/errors.js';
import { FOLDER_FILES_REQUEST_SCHEMA } from '../../common/files.js';
import { fromQuery } from '../../common/json-schema.js';
import { defaultDataDir, dataPaths } from '../config/paths.js';
import { CairnError, toErrorBody } from '../errors.js';
import { readAdminToken } from '../http/launch.js';
import { tuneHeapGrowth } from '../kernel/heap-growth.js';
import { readLock } from '../lock.js';
import { localClient, remoteClient, type EngineClient } from './client.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { formatFiles, formatHits, formatStatus } from './format.js';
import { runIndex } from './index-command.js';
import { searchRequestFromFlags } from './search-args.js';
import { USAGE } from './usage.js';

type Flags = Record<string, string | boolean | string[] | undefined>;

async function connect(home: string, opts: { repair?: boolean } = {}): Promise<EngineClient> {
  const paths = dataPaths(home);
  const live = await readLock(paths.lock);
  const token = live?.url ? await readAdminToken(paths.adminToken) : null;
  if (live?.url && token) return remoteClient(live.url, token);
  const { openEngine } = await import('../engine.js');
  // One command and out: the in-memory BM25 would be built for nothing (LanceDB answers a search).
  return localClient(await openEngine({ home, repair: opts.repair, searchMirror: false }));
}

function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  // `cairn search --help` (any command): the help, not an unknown-option error.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (command === '--version' || command === 'version') {
    const { ENGINE_VERSION } = await import('../version.js');
    process.stdout.write(`${ENGINE_VERSION}\n`);
    return EXIT.ok;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      'include-secrets': { type: 'boolean', default: false },
      'text-only': { type: 'boolean', default: false },
      show: { type: 'string' },
      offset: { type: 'string' },
      limit: { type: 'string' },
      mode: { type: 'string' },
      'top-k': { type: 'string' },
      folder: { type: 'string', multiple: true },
      glob: { type: 'string', multiple: true },
      type: { type: 'string', multiple: true },
      rebuild: { type: 'boolean', default: false },
      port: { type: 'string' },
      host: { type: 'string' },
      stdio: { type: 'boolean', default: false },
      exclusive: { type: 'boolean', default: false },
      timeout: { type: 'string' },
    },
  });
  const flags = values as Flags;
  const json = Boolean(flags.json);
  const home = defaultDataDir();

  switch (command) {
    case 'serve': {
      const { serve } = await import('./serve.js');
      return serve(home, {
        port: flags.port as string | undefined,
        host: flags.host as string | undefined,
        exclusive: Boolean(flags.exclusive),
      });
    }
    case 'mcp': {
      if (!flags.stdio) throw new CairnError('invalid_argument', 'usage: cairn mcp --stdio');
      const { serveStdioCommand } = await import('./stdio-command.js');
      return serveStdioCommand(home);
    }
    case 'stop': {
      const { stopEngine, describeStop } = await import('./stop-command.js');
      const raw = flags.timeout as string | undefined;
      const seconds = raw === undefined ? 30 : Number(raw);
      if (!Number.isFinite(seconds) || seconds <= 0)
        throw new CairnError(
          'invalid_argument',
          `--timeout must be a number of seconds above 0, got ${JSON.stringify(raw)}`,
        );
      const outcome = await stopEngine(home, { timeoutMs: seconds * 1000 });
      print(json, outcome, () => describeStop(home, outcome));
      return EXIT.ok;
    }
    case 'add': {
      const folder = positionals[0];
      if (!folder)
        throw new CairnError(
          'invalid_argument',
          'usage: cairn add <folder> [--include G] [--exclude G] [--include-secrets] [--text-only]',
        );
      const client = await connect(home);
      try {
        const { resolve } = await import('node:path');
        // A quoted `~/notes` reaches us unexpanded: the engine expands it (as its own home), not the cwd.
        const path = folder.startsWith('~') ? folder : resolve(folder);
        const st = await client.addFolder({
          path,
          include: (flags.include as string[]) ?? [],
          exclude: (flags.exclude as string[]) ?? [],
          ...(flags['include-secrets'] ? { include_secrets: true } : {}),
          ...(flags['text-only'] ? { text_only: true } : {}),
        });
        print(json, st, () =>
          client.remote
            ? `Added ${st.path}. The running engine is indexing it now (cairn status shows the progress).`
            : `Added ${st.path}. Index it with: cairn index`,
        );
      } finally {
        await client.close();
      }
      return EXIT.ok;
    }
    case 'remove': {
      const folder = positionals[0];
      if (!folder) throw new CairnError('invalid_argument', 'usage: cairn remove <folder>');
      const client = await connect(home);
      try {
        const { resolve } = await import('node:path');
        await client.removeFolder(resolve(folder));
        print(json, { removed: resolve(folder) }, () => `Removed ${resolve(folder)} and its index.`);
      } finally {
        await client.close();
      }
      return EXIT.ok;
    }
    case 'index': {
      const { stopSignals } = await import('./serve.js');
      const signals = stopSignals();
      const client = await connect(home, { repair: Boolean(flags.rebuild) });
      // A stop cancels the jobs at their next checkpoint (nothing half-written) and releases the
      // lock; a `cairn serve` the command went through keeps its job running.
      const stopped = new Promise<number>((resolve) => {
        signals.onStop((signal) => {
          process.stderr.write(`\n${signal}: stopping (finishing the current write)…\n`);
          void client.close().finally(() => resolve(signal === 'SIGINT' ? 130 : 143));
        });
      });
      try {
        const code = await Promise.race([runIndex(client, positionals, Boolean(flags.rebuild), json), stopped]);
        // The cancelled job may be seen ending before the stop completes: a stop is still a stop.
        return signals.signal ? await stopped : code;
      } finally {
        await client.close();
        signals.dispose();
      }
    }
    case 'search': {
      const query = positionals.join(' ').trim();
      if (!query)
        throw new CairnError('invalid_argument', 'usage: cairn search "<query>" [--mode M] [--top-k N] [--json]');
      const request = searchRequestFromFlags(query, flags);
      const client = await connect(home);
      try {
        const res = await client.search(request);
        print(json, res, () => formatHits(res));
      } finally {
        await client.close();
      }
      return EXIT.ok;
    }
    case 'files': {
      const folder = positionals[0];
      if (!folder)
        throw new CairnError(
          'invalid_argument',
          'usage: cairn files <folder> [--show all|indexed|embedding|errors|skipped] [--offset N] [--limit N] [--json]',
        );
      // The flags are read by the admin route's own query schema: the same rule and message either way.
      const { resolve } = await import('node:path');
      const read = fromQuery(
        FOLDER_FILES_REQUEST_SCHEMA,
        Object.entries({ path: resolve(folder), show: flags.show, offset: flags.offset, limit: flags.limit }).filter(
          (e): e is [string, string] => typeof e[1] === 'string',
        ),
      );
      if (!read.ok) throw new CairnError('invalid_argument', read.issue.message, { details: { key: read.issue.key } });
      const client = await connect(home);
      try {
        const res = await client.folderFiles(read.value);
        print(json, res, () => formatFiles(res));
      } finally {
        await client.close();
      }
      return EXIT.ok;
    }
    case 'status': {
      const client = await connect(home);
      try {
        const s = await client.status();
        print(json, s, () => formatStatus(s));
      } finally {
        await client.close();
      }
      return EXIT.ok;
    }
    default:
      throw new CairnError('invalid_argument', `unknown command "${command}"; see cairn help`);
  }
}

export async function main(argv: string[]): Promise<number> {
  // Every engine process (the app's, the stdio door's, `cairn serve`, `cairn index`) starts here.
  tuneHeapGrowth();
  // `cairn search … | head` closes the pipe early: that is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
  });
  const json = argv.includes('--json');
  try {
    return await run(argv);
  } catch (err) {
    const body =
      err instanceof CairnError
        ? err.toBody()
        : isErrorEnvelope(err)
          ? err.error
          : (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
              (err as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
            ? { code: 'invalid_argument' as const, message: (err as Error).message }
            : toErrorBody(err);
    if (json) process.stdout.write(`${JSON.stringify({ error: body })}\n`);
    else process.stderr.write(`cairn: ${body.message}${body.remedy ? `\n  ${body.remedy}` : ''}\n`);
    return exitCodeFor(body.code);
  }
}

const invokedDirectly = process.argv[1] && /cli[\\/]main\.(ts|js)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    // Whatever handle a library leaves open (a worker pool, a native watcher) must not keep a
    // finished command alive: once its work is done, it exits.
    setTimeout(() => process.exit(code), 1000).unref();
    // In the desktop app's utilityProcess the engine does not exit once its work is done
    // (electron/electron#47228), so the shell's clean stop would wait out its timeout.
    if ((process as NodeJS.Process & { parentPort?: unknown }).parentPort) process.exit(code);
  });
}
