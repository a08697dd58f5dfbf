/**
 * The first stage of a PGS import: the uploaded bytes → the scoring file's text, gunzipped
 * with its output capped (as the genotype parser caps what it inflates), so a decompression
 * bomb is refused before it fills memory.
 */
import { gunzipSync } from 'node:zlib';
import { formatBytes } from '../../../shared/format-bytes.js';

/**
 * Most bytes a gzipped scoring file may expand to (500 MiB). The whole text is read as one
 * string, and V8's longest string is 2^29 − 24 characters (just under 512 MiB), so nothing
 * larger could be read anyway; a file that expands beyond this is refused before it fills memory.
 */
export const MAX_PGS_DECOMPRESSED_BYTES = 500 * 1024 * 1024;

/** Decompresses a gzipped file (if it is one) with its output capped at maxBytes, then decodes UTF-8. */
export function decodeScoringFile(bytes: Uint8Array, maxBytes = MAX_PGS_DECOMPRESSED_BYTES): string {
  let data = bytes;
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(
          `The compressed file expands to more than ${formatBytes(maxBytes)}, more than any scoring file this app can read. ` +
            'It may be a decompression bomb or not a scoring file; download the scoring file from the PGS Catalog again.',
          { cause: err },
        );
      throw new Error('The file looks gzipped but could not be decompressed. Download the scoring file again.', {
        cause: err,
      });
    }
  }
  if (data.length > maxBytes)
    throw new Error(
      `The file is larger than ${formatBytes(maxBytes)}, more than any scoring file this app can read. Download the scoring file from the PGS Catalog again.`,
    );
  return new TextDecoder('utf-8').decode(data).replace(/^\uFEFF/, '');
}
