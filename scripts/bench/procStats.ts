/**
 * What /proc says about a `wrangler dev` process group (Linux only): the memory of the workerd it
 * started, which holds the worker's isolates and its local D1, and the CPU time the whole group
 * (wrangler's node, its workerds) has used. CPU time counts only while the group runs, so unlike
 * requests per second it barely moves when other programs load the machine.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';

interface Proc {
  pid: number;
  name: string;
  group: number;
  /** User plus system CPU time, in clock ticks. */
  ticks: number;
}

function readProc(pid: number): Proc | null {
  try {
    // /proc/<pid>/stat: "pid (name) state ppid pgrp … utime(14) stime(15) …"; the name may hold spaces.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return {
      pid,
      name: stat.slice(stat.indexOf('(') + 1, close),
      group: Number(fields[2]),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return null; // gone since the directory was listed
  }
}

function groupProcs(group: number): Proc[] {
  if (process.platform !== 'linux') throw new Error('Reading a process group needs Linux /proc');
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProc(Number(entry)))
    .filter((proc): proc is Proc => proc !== null && proc.group === group);
}

function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS`);
  return Number(match[1]) * 1024;
}

/**
 * The RSS in bytes of the group's processes named `workerd` (wrangler 4 runs two: its dev proxy and
 * the worker), each and summed; throws when there are none.
 */
export function workerdMemory(group: number): {rss: number; each: number[]} {
  const workerds = groupProcs(group).filter((proc) => proc.name === 'workerd');
  if (workerds.length === 0) throw new Error(`No workerd process in process group ${group}`);
  const each = workerds.map((proc) => rssBytes(proc.pid));
  return {rss: each.reduce((sum, bytes) => sum + bytes, 0), each};
}

let ticksPerSecond: number | undefined;

/** The CPU seconds (user and system) the group's running processes have used so far. */
export function groupCpuSeconds(group: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;
  return groupProcs(group).reduce((sum, proc) => sum + proc.ticks, 0) / ticksPerSecond;
}
