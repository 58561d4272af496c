/**
 * What the bench's report and its cases share to summarize runs: the median of finite values and a
 * figure by its dotted key.
 */

/** The median of the finite values; undefined when there are none. */
export function median(values) {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return undefined;
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The figure of `run` at `key` (`c8.cpuUsPerCall`). */
export function valueAt(run, key) {
  return key.split('.').reduce((value, part) => value?.[part], run);
}
