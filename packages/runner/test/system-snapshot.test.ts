import { describe, expect, it } from 'vitest';
import { localIsoSeconds, systemSnapshot } from '../src/index.js';

describe('systemSnapshot (upstream utils/system_snapshot.py keys)', () => {
  it('reports CPU, memory, disk and meta figures with sane values', () => {
    systemSnapshot();
    const snap = systemSnapshot();
    expect(typeof snap.host).toBe('string');
    expect(snap.host.length).toBeGreaterThan(0);
    expect(snap.os).toMatch(/-/);
    expect(snap.cpu_threads).toBeGreaterThan(0);
    expect(snap.cpu_cores).toBeGreaterThan(0);
    expect(snap.cpu_cores).toBeLessThanOrEqual(snap.cpu_threads);
    expect(snap.cpu_usage_pct).toBeGreaterThanOrEqual(0);
    expect(snap.cpu_usage_pct).toBeLessThanOrEqual(100);
    expect(snap.mem_total_gb).toBeGreaterThan(0);
    expect(snap.mem_used_gb).toBeLessThanOrEqual(snap.mem_total_gb);
    expect(snap.mem_pct).toBeGreaterThan(0);
    expect(snap.mem_pct).toBeLessThanOrEqual(100);
    expect(snap.disk_total_gb).toBeGreaterThan(0);
    expect(snap.disk_pct).toBeGreaterThanOrEqual(0);
    // Sizes are rounded to two decimals, as upstream.
    expect(Math.round(snap.mem_total_gb * 100) / 100).toBe(snap.mem_total_gb);
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });

  it('formats timestamps like Python isoformat(timespec="seconds") in local time', () => {
    expect(localIsoSeconds(new Date(2025, 0, 2, 3, 4, 5, 678))).toBe('2025-01-02T03:04:05');
  });
});
