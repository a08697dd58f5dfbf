/**
 * Marks on the page's performance timeline at each step of a dropped file, from the drop to
 * its results on screen (`traitscope:<step>`, the profile's id as detail). DevTools shows
 * them beside the page's own work, and `npm run bench -- ui` reads them to say where the
 * time went. A mark costs microseconds.
 */
type FileStep =
  | 'dropped'
  | 'profile-created'
  | 'upload-started'
  | 'uploaded'
  | 'processed'
  | 'scored'
  | 'results-received'
  | 'results-shown';

export function markStep(step: FileStep, profileId?: string | null): void {
  performance.mark(`traitscope:${step}`, { detail: profileId ?? null });
}

/** Marks the step once the frame that shows the change of this moment has been drawn. */
export function markStepPainted(step: FileStep, profileId: string): void {
  // The frame callback runs before that frame is drawn; a task queued from it runs after.
  requestAnimationFrame(() => setTimeout(() => markStep(step, profileId), 0));
}
