import { readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';

/**
 * The heartbeat statistics of a worker (upstream `utils/system_snapshot.py`, same keys). Sizes in GiB/MiB
 * rounded to 2 decimals; `timestamp` is local time, ISO 8601 to the second, without offset (as Python's
 * `datetime.now().isoformat(timespec="seconds")`).
 */
export interface SystemSnapshot {
  timestamp: string;
  host: string;
  os: string;
  cpu_name: string;
  cpu_cores: number;
  cpu_threads: number;
  /** Busy share of all CPUs since the previous snapshot of this process (0 on the first). */
  cpu_usage_pct: number;
  mem_used_gb: number;
  mem_total_gb: number;
  mem_pct: number;
  disk_used_gb?: number;
  disk_total_gb?: number;
  disk_pct?: number;
  /** Totals over all network interfaces; present where readable (Linux `/proc/net/dev`). */
  bytes_sent_mb?: number;
  bytes_recv_mb?: number;
  [extra: string]: unknown;
}

const GIB = 2 ** 30;
const MIB = 2 ** 20;
const round2 = (value: number): number => Math.round(value * 100) / 100;
const round1 = (value: number): number => Math.round(value * 10) / 10;

let previousCpuTimes: { idle: number; total: number } | null = null;

/** Captures the snapshot. Never throws: a figure that cannot be read is left out. */
export function systemSnapshot(): SystemSnapshot {
  const cpus = os.cpus();
  const memory = memoryFigures();
  return {
    timestamp: localIsoSeconds(new Date()),
    host: os.hostname(),
    os: `${os.type()}-${os.release()}-${os.machine()}`,
    cpu_name: cpus[0]?.model.trim() ?? '',
    cpu_cores: physicalCores() ?? cpus.length,
    cpu_threads: cpus.length,
    cpu_usage_pct: cpuUsage(cpus),
    mem_used_gb: round2(memory.used / GIB),
    mem_total_gb: round2(memory.total / GIB),
    mem_pct: memory.total > 0 ? round1((memory.used / memory.total) * 100) : 0,
    ...diskFigures(),
    ...networkFigures(),
  };
}

/** `YYYY-MM-DDTHH:MM:SS` in local time. */
export function localIsoSeconds(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function cpuUsage(cpus: os.CpuInfo[]): number {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  const previous = previousCpuTimes;
  previousCpuTimes = { idle, total };
  if (!previous || total <= previous.total) return 0;
  const busy = 1 - (idle - previous.idle) / (total - previous.total);
  return round1(Math.min(Math.max(busy, 0), 1) * 100);
}

/** Physical cores from `/proc/cpuinfo` (distinct physical id/core id pairs); null elsewhere. */
function physicalCores(): number | null {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const pairs = new Set<string>();
    let physical = '0';
    for (const line of text.split('\n')) {
      const [key, value] = line.split(':').map((part) => part.trim());
      if (key === 'physical id') physical = value ?? '0';
      else if (key === 'core id') pairs.add(`${physical}/${value}`);
    }
    return pairs.size > 0 ? pairs.size : null;
  } catch {
    return null;
  }
}

/** Used memory as psutil counts it on Linux (total − available), else total − free. */
function memoryFigures(): { used: number; total: number } {
  const total = os.totalmem();
  try {
    const match = /^MemAvailable:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (match) return { used: total - Number(match[1]) * 1024, total };
  } catch {
    // not Linux
  }
  return { used: total - os.freemem(), total };
}

function diskFigures(): Partial<SystemSnapshot> {
  try {
    const fs = statfsSync(os.platform() === 'win32' ? 'C:\\' : '/');
    const total = fs.blocks * fs.bsize;
    const used = (fs.blocks - fs.bfree) * fs.bsize;
    const avail = fs.bavail * fs.bsize;
    return {
      disk_used_gb: round2(used / GIB),
      disk_total_gb: round2(total / GIB),
      disk_pct: used + avail > 0 ? round1((used / (used + avail)) * 100) : 0,
    };
  } catch {
    return {};
  }
}

function networkFigures(): Partial<SystemSnapshot> {
  try {
    let received = 0;
    let sent = 0;
    for (const line of readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2)) {
      const [, counters] = line.split(':');
      if (!counters) continue;
      const fields = counters.trim().split(/\s+/).map(Number);
      received += fields[0] ?? 0;
      sent += fields[8] ?? 0;
    }
    return { bytes_sent_mb: round2(sent / MIB), bytes_recv_mb: round2(received / MIB) };
  } catch {
    return {};
  }
}
