/** The window title follows the screen ("Ada Lovelace – Traitscope"), for screen readers, tabs and the task bar. */
import { useEffect } from 'react';

export function useDocumentTitle(title: string | null, full = false): void {
  useEffect(() => {
    if (title === null) return;
    document.title = full ? title : `${title} – Traitscope`;
  }, [title, full]);
}
