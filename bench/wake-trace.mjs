/**
 * What `bench/wake-placement.mjs` reads from a scheduler and system-call trace (`perf script`
 * lines): per call at one connection, the time each process spends and each hand-over between them
 * takes (wrk → gateway → upstream → gateway → wrk), and where the processes ran. A hand-over to a
 * process on the other CPU wakes a halted vCPU on this kind of VM (~30–40 µs); one on the same CPU
 * costs a few µs, and less when the woken process preempts the waker (bench/README.md, "Eleventh pass").
 */

const LINE = /^\s*(\S+)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)$/;

/** One `perf script -F comm,tid,cpu,time,event,trace` line as an event, or undefined. */
export function parseTraceLine(line) {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  return { comm: match[1], tid: Number(match[2]), cpu: Number(match[3]), us: Math.round(Number(match[4]) * 1e6), event: match[5].replace(/^(syscalls|sched):/, ''), args: match[6] };
}

const fdOf = (args) => parseInt(/fd: (0x[0-9a-f]+)/.exec(args)?.[1] ?? '-1', 16);
const returned = (args) => parseInt(/^(0x[0-9a-f]+)/.exec(args)?.[1] ?? '0', 16);
const isWrite = (event) => event === 'sys_enter_write' || event === 'sys_enter_writev';

/**
 * The gateway's descriptors, from what it did: the client's socket is the descriptor it both reads
 * and writes most, the upstream's stdin the other one it writes most, its stdout the other one it
 * reads most.
 */
function descriptorsOf(events, gateway) {
  const reads = new Map();
  const writes = new Map();
  let reading;
  for (const event of events) {
    if (event.tid !== gateway) continue;
    if (event.event === 'sys_enter_read') reading = fdOf(event.args);
    else if (event.event === 'sys_exit_read' && returned(event.args) > 0 && returned(event.args) < 2 ** 31) reads.set(reading, (reads.get(reading) ?? 0) + 1);
    else if (isWrite(event.event)) writes.set(fdOf(event.args), (writes.get(fdOf(event.args)) ?? 0) + 1);
  }
  const most = (counts, except) => [...counts].filter(([fd]) => fd !== except).sort((a, b) => b[1] - a[1])[0]?.[0];
  const client = [...reads.keys()].filter((fd) => writes.has(fd)).sort((a, b) => (reads.get(b) ?? 0) + (writes.get(b) ?? 0) - (reads.get(a) ?? 0) - (writes.get(a) ?? 0))[0];
  return { client, upstreamIn: most(writes, client), upstreamOut: most(reads, client) };
}

/**
 * Marks of one process's steps: `Gr` the gateway read a request, `Gq` wrote it to the upstream,
 * `Ur`/`Uw` the upstream read it/wrote its answer, `Gp` the gateway read the answer, `Gw` wrote its
 * own, `Wr`/`Ww` wrk read it/wrote the next request; `Gs` the gateway slept, `Gx` it was preempted.
 */
function marksOf(events, { gateway, upstream, client: wrk }, fds) {
  const marks = [];
  const reading = new Map();
  for (const event of events) {
    const { tid } = event;
    if (tid !== gateway && tid !== upstream && tid !== wrk) continue;
    let mark;
    if (event.event === 'sys_enter_read') {
      reading.set(tid, fdOf(event.args));
    } else if (event.event === 'sys_exit_read') {
      const bytes = returned(event.args);
      if (bytes <= 0 || bytes >= 2 ** 31) continue;
      const fd = reading.get(tid);
      if (tid === gateway) mark = fd === fds.client ? 'Gr' : fd === fds.upstreamOut ? 'Gp' : undefined;
      else mark = tid === upstream ? (fd === 0 ? 'Ur' : undefined) : 'Wr';
    } else if (isWrite(event.event)) {
      const fd = fdOf(event.args);
      if (tid === gateway) mark = fd === fds.client ? 'Gw' : fd === fds.upstreamIn ? 'Gq' : undefined;
      else mark = tid === upstream ? (fd === 1 ? 'Uw' : undefined) : 'Ww';
    } else if (event.event === 'sched_switch' && tid === gateway && event.args.includes(`prev_pid=${gateway} `)) {
      mark = / prev_state=R/.test(event.args) ? 'Gx' : 'Gs';
    }
    if (mark !== undefined) marks.push({ mark, us: event.us, cpu: event.cpu });
  }
  return marks;
}

const ORDER = ['Gr', 'Gq', 'Ur', 'Uw', 'Gp', 'Gw', 'Wr', 'Ww'];

/** The calls of the trace: each with its marks in order and the next request's read. */
function callsOf(marks) {
  const calls = [];
  let index = 0;
  while (index < marks.length) {
    if (marks[index].mark !== 'Gr') {
      index++;
      continue;
    }
    const call = { Gr: marks[index] };
    let stage = 1;
    let next = index + 1;
    for (; next < marks.length && stage < ORDER.length; next++) {
      const { mark } = marks[next];
      if (mark === 'Gr') break;
      if (mark === ORDER[stage]) call[ORDER[stage++]] = marks[next];
      else if ((mark === 'Gs' || mark === 'Gx') && stage >= 6 && call.after === undefined) call.after = marks[next];
    }
    const following = stage === ORDER.length ? marks.slice(next).find((mark) => mark.mark === 'Gr') : undefined;
    if (following !== undefined) calls.push({ ...call, next: following });
    index = next;
  }
  return calls;
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

/**
 * Per-call medians (µs) and shares of a trace of one connection's calls through `pids.gateway`
 * (`upstream`: its stdio server, `client`: wrk), skipping the first `skip` calls.
 */
export function wakePlacement(events, pids, skip = 50) {
  const fds = descriptorsOf(events, pids.gateway);
  const calls = callsOf(marksOf(events, pids, fds)).slice(skip);
  const of = (from, to) => median(calls.map((call) => call[to].us - call[from].us));
  const share = (test) => calls.filter(test).length / Math.max(1, calls.length);
  return {
    calls: calls.length,
    descriptors: fds,
    medianUs: {
      call: median(calls.map((call) => call.next.us - call.Gr.us)),
      gatewayIngress: of('Gr', 'Gq'),
      toUpstream: of('Gq', 'Ur'),
      upstream: of('Ur', 'Uw'),
      fromUpstream: of('Uw', 'Gp'),
      gatewayAnswer: of('Gp', 'Gw'),
      toClient: of('Gw', 'Wr'),
      client: of('Wr', 'Ww'),
      fromClient: median(calls.map((call) => call.next.us - call.Ww.us)),
    },
    share: {
      clientWithGateway: share((call) => call.Gw.cpu === call.Wr.cpu),
      upstreamWithGateway: share((call) => call.Gq.cpu === call.Ur.cpu),
      gatewayPreemptedAfterAnswer: share((call) => call.after?.mark === 'Gx'),
    },
  };
}
