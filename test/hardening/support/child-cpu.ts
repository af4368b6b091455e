import { readFileSync } from 'node:fs';

/**
 * The CPU time a live process has used so far, in clock ticks (utime + stime, /proc/<pid>/stat on
 * Linux): when it stops growing, the process is idle, however slowly a busy machine ran it.
 */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
