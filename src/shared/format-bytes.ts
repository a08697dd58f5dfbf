/**
 * A byte count for people, in the service's messages and the UI alike: "812 bytes",
 * "3.4 KiB", "25 MiB", "1 GiB". Binary units, named as such; one decimal unless whole
 * or 100 and more.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(Number.isInteger(value) || value >= 100 ? 0 : 1)} ${units[unit]}`;
}
