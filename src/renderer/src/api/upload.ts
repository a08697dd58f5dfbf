/**
 * Sends a genotype file to its time-limited upload URL. XMLHttpRequest rather than fetch,
 * because only it reports upload progress.
 */
import { ApiError, OFFLINE_MESSAGE } from './client.js';

export interface UploadHandle {
  done: Promise<void>;
  cancel: () => void;
}

export function uploadFile(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        return resolve();
      }
      let message = `The upload was refused (HTTP ${xhr.status}).`;
      try {
        const body = JSON.parse(xhr.responseText) as { detail?: string };
        if (body.detail) message = body.detail;
      } catch {
        // keep the general sentence
      }
      reject(new ApiError(message, xhr.status));
    };
    xhr.onerror = () => reject(new ApiError(OFFLINE_MESSAGE, 0));
    xhr.onabort = () => reject(new ApiError('The upload was cancelled.', 0));
    xhr.send(file);
  });
  return { done, cancel: () => xhr.abort() };
}

/** The upload content type the service expects for a file. */
export { uploadContentType as contentTypeFor } from '../../../shared/genotype-files.js';
