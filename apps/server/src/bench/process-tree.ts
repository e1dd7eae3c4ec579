import { existsSync, readFileSync } from "node:fs";

/**
 * What a measured process and its descendants (cluster workers, PostgreSQL's backends) use,
 * read from /proc: the bench's figures are the whole tree's, never one process of several.
 */

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat (100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/** VmRSS of `pid` plus its descendants', in bytes (0 once it is gone). */
export function residentBytes(pid: number): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return 0;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, "utf8"));
  const own = match ? Number(match[1]) * 1024 : 0;
  return own + childPids(pid).reduce((sum, child) => sum + residentBytes(child), 0);
}

/**
 * CPU seconds (user + system) that `pid` and its descendants have used so far: the living ones'
 * own, plus what the ended ones used (a parent's cutime and cstime, once it has reaped them:
 * PostgreSQL's closed backends, a restarted worker). Read before and after a round: the
 * difference over the round's requests is the CPU a request costs, a figure the machine's
 * other load does not distort as it does a rate.
 */
export function cpuSeconds(pid: number): number {
  let ticks: number;
  try {
    // Fields after the command name (which may hold spaces): state is field 3, then utime,
    // stime, cutime and cstime are fields 14 to 17.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  } catch {
    return 0; // gone
  }
  return ticks / TICKS_PER_SECOND + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return []; // gone, or a kernel without CONFIG_PROC_CHILDREN: the process's own figures
  }
}
