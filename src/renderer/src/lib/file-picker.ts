/** The system file chooser, for people who don't drag files. */
import { GENOTYPE_ACCEPT } from '../../../shared/genotype-files.js';

export function pickFiles(options: { multiple?: boolean } = {}): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = GENOTYPE_ACCEPT;
    input.multiple = options.multiple ?? true;
    input.className = 'visually-hidden';
    input.tabIndex = -1;
    input.setAttribute('aria-hidden', 'true');
    input.dataset.testid = 'file-input';
    const finish = (files: File[]) => {
      input.remove();
      resolve(files);
    };
    input.addEventListener('change', () => finish(Array.from(input.files ?? [])), { once: true });
    input.addEventListener('cancel', () => finish([]), { once: true });
    document.body.append(input);
    input.click();
  });
}
