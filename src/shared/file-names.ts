/** File names the app suggests (reports, exports), in the UI and in the desktop app's save dialog. */

// eslint-disable-next-line no-control-regex -- control characters are what a file name must not contain
const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|\u0000-\u001f]+/g;

/** `text` as a file name on every system: no path separators, reserved or control characters; at most `maxLength` characters. */
export function fileNameFrom(text: string, maxLength: number): string {
  return text.replace(UNSAFE_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim().slice(0, maxLength);
}
