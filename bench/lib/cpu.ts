/** How many cores a stretch of work kept busy: process CPU time (all threads) over wall time. */
export interface CpuMeter {
  /** Average busy cores since start. */
  cores(): number;
}

export function cpuMeter(): CpuMeter {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    cores: () => {
      const c = process.cpuUsage(c0);
      const wallUs = (performance.now() - t0) * 1000;
      return wallUs > 0 ? (c.user + c.system) / wallUs : 0;
    },
  };
}

/** Resident set size of another process from /proc (Linux), in MB; null where unavailable. */
export function rssOfPid(pid: number, readFile: (p: string) => string): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFile(`/proc/${pid}/status`));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
