/** Where and on what a result was measured, so figures from different machines are not compared blindly. */
import { cpus, totalmem, loadavg, platform, release, arch } from 'node:os';
import { execFileSync } from 'node:child_process';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memory_gb: number;
  platform: string;
  arch: string;
  node: string;
  /** 1-minute load average when the benchmark started: a busy shared machine shows here. */
  load_1m: number;
}

export function machineInfo(): MachineInfo {
  const c = cpus();
  return {
    cpu: c[0]?.model?.trim() ?? 'unknown',
    cores: c.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${platform()} ${release()}`,
    arch: arch(),
    node: process.version,
    load_1m: Math.round(loadavg()[0] * 100) / 100,
  };
}

export function gitCommit(cwd: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}
