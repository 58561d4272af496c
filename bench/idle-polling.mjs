/**
 * Idle CPUs held polling for the gateway case's one-connection windows (bench/README.md, ninth pass).
 * On this kind of VM the cpuidle driver halts an idle vCPU at once, and waking a halted one costs a
 * VM exit of 30–50 µs; a call at one connection is four wake-ups in a row, so the floor's p50 of
 * ~150 µs was about two-thirds wake-up cost, and which wake-ups paid it changed from window to
 * window. Holding a PM QoS request of 0 µs on /dev/cpu_dma_latency (what cyclictest does) keeps idle
 * CPUs in the polling state while the file is open: a wake-up then costs what the kernel's own work
 * costs, the same for every row, and the p50 is the rows' own path. The request ends when the file is
 * closed, or with this process; nothing on the machine stays changed.
 */

import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';

const QOS_FILE = '/dev/cpu_dma_latency';

/** Why idle CPUs cannot be held polling here, or undefined when they can. */
export function idlePollingUnavailable() {
  if (process.platform !== 'linux') return 'needs Linux (/dev/cpu_dma_latency)';
  if (!existsSync('/sys/devices/system/cpu/cpu0/cpuidle')) return 'no cpuidle on this machine: idle CPUs are not put to sleep by the kernel';
  try {
    accessSync(QOS_FILE, constants.W_OK);
  } catch {
    return `${QOS_FILE} is not writable (needs root)`;
  }
  return undefined;
}

/** The name of the idle state each CPU enters now (for the run's record), e.g. `haltpoll`. */
export function idleDriver() {
  try {
    return readFileSync('/sys/devices/system/cpu/cpuidle/current_driver', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Holds idle CPUs polling until the returned function is called (call it in a `finally`). */
export function holdIdlePolling() {
  const fd = openSync(QOS_FILE, 'w');
  try {
    // The kernel reads a 32-bit latency in µs; 0: no idle state with any exit latency.
    writeSync(fd, Buffer.alloc(4));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
}
