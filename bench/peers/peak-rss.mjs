/**
 * This process's peak resident memory in MB, for the peers benchmark's index children. VmHWM, not
 * `process.resourceUsage().maxRSS`: on Linux a spawned child's maxRSS starts at its parent's
 * resident size (the kernel carries it across exec), so a child spawned by a 600 MB benchmark
 * reported 600 MB whatever it used itself, and qmd and Cairn then both read the parent's size.
 * VmHWM belongs to the child's own address space. Plain JS: the Node 22 reference child loads it too.
 */
import { readFileSync } from 'node:fs';

export function peakRssMb() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // No procfs: getrusage, the best there is (the peers benchmark itself runs on Linux only).
  }
  return process.resourceUsage().maxRSS / 1024;
}
