/**
 * The drop flow: for each file, a profile (new, or the open one when its genotype is being
 * replaced), a time-limited upload URL, the upload with real progress, then processing
 * until the results are there. Each file is one job the user can follow and retry.
 *
 * Progress comes pushed from the service (state/service-events.ts keeps the cached genotype
 * and lists current): processing ends, every trait is scored in the background (shown as
 * "Computing N of M"), then the lists are read once. Without the event stream the flow
 * falls back to asking the service.
 */
import { create } from 'zustand';
import type { Profile } from '../../../shared/api.js';
import { api } from '../api/client.js';
import { contentTypeFor, uploadFile } from '../api/upload.js';
import { cutOffLastLine } from '../lib/md5.js';
import { profileName } from '../lib/format.js';
import { indexedFileOf } from '../lib/index-files.js';
import { nameFromFileName, otherPersonInFileName } from '../lib/names.js';
import { openDialog } from './dialogs.js';
import { markStep } from '../lib/timeline.js';
import {
  addedProfile,
  genotypeNow,
  genotypeWhenProcessed,
  hasFile,
  hasUsableGenotype,
  profilesNow,
  readGenotype,
  removeProfile,
} from './profiles.js';
import { isOpenedFile, md5Of, storeOpenedFile, tailOf, type JobFile } from '../platform/opened-files.js';
import { navigate, useRouter } from './router.js';
import { readResults, useScoring } from './traits.js';

export type JobStage =
  | 'checking'
  | 'duplicate'
  /** A profile of the same name already exists: replace its file, make a new profile, or cancel. */
  | 'same-name'
  | 'creating'
  | 'uploading'
  | 'processing'
  /** The file is read; every trait is being scored in the background. */
  | 'scoring'
  | 'done'
  | 'failed'
  /** Not imported: the index of another file dropped with it (lib/index-files.ts). */
  | 'skipped';

export interface Job {
  id: number;
  /** A File of the page, or a file the desktop app opened (stored from disk by the main process). */
  file: JobFile;
  profileId: string | null;
  profileName: string;
  /** A new profile from the file, or a new file for an existing profile. */
  mode: 'new' | 'replace';
  stage: JobStage;
  /** Upload progress, 0…1. */
  progress: number;
  error: string | null;
  /** Why it failed: the file itself could not be read (retrying won't help), or the transfer. */
  failure: 'unreadable' | 'transfer' | null;
  /** Results available when done. */
  results: number;
  /** The file's last line when it stops mid-line (a cut-off download), for a warning. */
  cutLine?: string | null;
  /** A profile that already has this very file (same content hash): the person chooses. */
  duplicateOf?: { id: string; name: string };
  /** The existing profile whose name this file's name gives. */
  sameNameAs?: { id: string; name: string };
  /** The profile made for an unreadable file was removed again: nothing is left behind. */
  removedProfile?: boolean;
  /** For a skipped index file: the name of the file it indexes. */
  indexOf?: string;
  cancel?: () => void;
}

interface JobsState {
  jobs: Job[];
  /** Starts one job per file; the first new profile is opened. */
  analyzeFiles: (files: JobFile[]) => void;
  /** Replaces the genotype of an existing profile. */
  replaceGenotype: (profileId: string, file: JobFile) => void;
  retry: (jobId: number) => void;
  /** Imports a file recognised as already imported, as a new profile all the same. */
  importAnyway: (jobId: number) => void;
  /** The file of a "same name" job replaces that profile's file instead. */
  replaceSameName: (jobId: number) => void;
  dismiss: (jobId: number) => void;
  clearFinished: () => void;
}

let nextId = 1;

export const useJobs = create<JobsState>((set, get) => {
  const update = (id: number, patch: Partial<Job>) =>
    set({ jobs: get().jobs.map((j) => (j.id === id ? { ...j, ...patch } : j)) });
  const job = (id: number) => get().jobs.find((j) => j.id === id);

  /** Finished and skipped jobs leave the tray by themselves after a while; failures stay until dismissed. */
  const leaveWhenSeen = (id: number, stage: 'done' | 'skipped') =>
    setTimeout(() => {
      if (job(id)?.stage === stage) set({ jobs: get().jobs.filter((x) => x.id !== id) });
    }, 8_000);

  /** Stored files of exactly this file's size, by MD5: only those can be this very file. */
  function sameSizedFiles(file: JobFile): Map<string, string> {
    const hashes = new Map<string, string>();
    for (const p of profilesNow()) {
      const g = genotypeNow(p.id);
      // Hashing 24 MB in the page took seconds under load, so files of other sizes are never read for it.
      if (hasFile(g) && g.metadata.status !== 'failed' && g.size === String(file.size)) hashes.set(g.md5_hash, p.id);
    }
    return hashes;
  }

  /** The profile whose genotype is this very file, if any (same MD5 as the service stored). */
  async function alreadyImported(
    file: JobFile,
    hashes: Map<string, string>,
  ): Promise<{ id: string; name: string } | undefined> {
    const id = hashes.get(await md5Of(file));
    const p = id ? profilesNow().find((x) => x.id === id) : undefined;
    return p ? { id: p.id, name: profileName(p) } : undefined;
  }

  async function run(id: number, openWhenCreated: boolean, checkDuplicate = true): Promise<void> {
    let j = job(id);
    if (!j) return;
    let created = false;
    let newProfile: Profile | null = null;
    /** Shows the profile made for this file: in the list, in the tray, and opened if asked. */
    const showNewProfile = () => {
      if (!newProfile) return;
      const profile = newProfile;
      newProfile = null;
      addedProfile(profile);
      update(id, { profileId: profile.id, profileName: profileName(profile) });
      if (openWhenCreated) navigate({ name: 'profile', id: profile.id });
    };
    try {
      let profileId = j.profileId;
      // Only the file's last bytes, read beside the requests rather than before them.
      if (j.cutLine === undefined)
        void cutOffLastLine(tailOf(j.file), j.file.name)
          .catch(() => null)
          .then((cutLine) => update(id, { cutLine }));
      if (!profileId && checkDuplicate) {
        const sameSized = sameSizedFiles(j.file);
        if (sameSized.size > 0) {
          update(id, { stage: 'checking' });
          const duplicateOf = await alreadyImported(j.file, sameSized).catch(() => undefined);
          if (duplicateOf) {
            update(id, { stage: 'duplicate', duplicateOf });
            return;
          }
        }
        // A second file for a person who already has a profile is most often a newer download.
        const wanted = profileName(nameFromFileName(j.file.name)).toLowerCase();
        const same = profilesNow().find((p) => profileName(p).toLowerCase() === wanted);
        if (same) {
          update(id, { stage: 'same-name', sameNameAs: { id: same.id, name: profileName(same) } });
          return;
        }
      }
      const contentType = contentTypeFor(j.file.name);
      if (!profileId) {
        created = true;
        update(id, { stage: 'creating', error: null, failure: null });
        newProfile = await api.createProfile(nameFromFileName(j.file.name));
        profileId = newProfile.id;
        markStep('profile-created', profileId);
      }
      const file = j.file;
      if (isOpenedFile(file)) {
        // Opened by the desktop app: its main process stores it from disk; processing follows.
        update(id, { stage: 'uploading', progress: 0, error: null, failure: null });
        showNewProfile();
        await storeOpenedFile(file, profileId);
      } else {
        const { url } = await api.uploadUrl(profileId, contentType);
        update(id, { stage: 'uploading', progress: 0, error: null, failure: null });
        const handle = uploadFile(url, file, contentType, (progress) => update(id, { progress }));
        markStep('upload-started', profileId);
        update(id, { cancel: handle.cancel });
        // The new profile's page renders while the file travels, not before it leaves.
        showNewProfile();
        await handle.done;
      }
      markStep('uploaded', profileId);
      update(id, { stage: 'processing', progress: 1, cancel: undefined });
      // The upload starts processing by itself; follow it until it ends.
      const meta = await genotypeWhenProcessed(profileId);
      markStep('processed', profileId);
      if (hasFile(meta) && meta.metadata.status === 'failed') {
        const error = meta.metadata.error || 'The file could not be read as DNA raw data.';
        // A profile made only for this file would be left empty: remove it again.
        const removable = created || (job(id)?.mode === 'new' && typeof meta.metadata.snp_count !== 'number');
        if (removable) {
          await removeProfile(profileId).catch(() => undefined);
          const route = useRouter.getState().route;
          if ('id' in route && route.id === profileId) navigate({ name: 'home' }, { replace: true });
          update(id, { stage: 'failed', failure: 'unreadable', error, removedProfile: true, profileId: null });
          return;
        }
        update(id, { stage: 'failed', failure: 'unreadable', error });
        return;
      }
      update(id, { stage: 'scoring' });
      await scoringEnded(profileId);
      const results = Object.keys((await readResults(profileId)).results).length;
      update(id, { stage: 'done', results });
      leaveWhenSeen(id, 'done');
    } catch (err) {
      showNewProfile(); // created, then the upload failed: the profile exists, and a retry uses it
      j = job(id);
      update(id, { stage: 'failed', failure: 'transfer', error: (err as Error).message, cancel: undefined });
      if (j?.profileId) void readGenotype(j.profileId).catch(() => undefined);
    }
  }

  return {
    jobs: [],

    analyzeFiles(files) {
      markStep('dropped');
      const names = files.map((f) => f.name);
      const jobs: Job[] = files.map((file) => {
        const indexOf = indexedFileOf(file.name, names);
        return {
          id: nextId++,
          file,
          profileId: null,
          profileName: profileName(nameFromFileName(file.name)),
          mode: 'new',
          stage: indexOf ? 'skipped' : 'creating',
          progress: 0,
          error: null,
          failure: null,
          results: 0,
          ...(indexOf ? { indexOf } : {}),
        };
      });
      set({ jobs: [...get().jobs, ...jobs] });
      jobs.filter((j) => j.stage === 'creating').forEach((j, i) => void run(j.id, i === 0));
      for (const j of jobs) if (j.stage === 'skipped') leaveWhenSeen(j.id, 'skipped');
    },

    replaceGenotype(profileId, file) {
      const profile = profilesNow().find((p) => p.id === profileId);
      const j: Job = {
        id: nextId++,
        file,
        profileId,
        profileName: profile ? profileName(profile) : 'Profile',
        mode: 'replace',
        stage: 'uploading',
        progress: 0,
        error: null,
        failure: null,
        results: 0,
      };
      set({ jobs: [...get().jobs, j] });
      void run(j.id, false);
    },

    importAnyway(jobId) {
      const j = job(jobId);
      if (j?.stage === 'duplicate' || j?.stage === 'same-name') {
        update(jobId, { duplicateOf: undefined, sameNameAs: undefined });
        void run(jobId, true, false);
      }
    },

    replaceSameName(jobId) {
      const j = job(jobId);
      if (j?.stage !== 'same-name' || !j.sameNameAs) return;
      set({ jobs: get().jobs.filter((x) => x.id !== jobId) });
      get().replaceGenotype(j.sameNameAs.id, j.file);
    },

    retry(jobId) {
      const j = job(jobId);
      if (j?.stage === 'failed' && j.failure === 'transfer') void run(jobId, false);
    },

    dismiss(jobId) {
      job(jobId)?.cancel?.();
      set({ jobs: get().jobs.filter((j) => j.id !== jobId) });
    },

    clearFinished() {
      set({ jobs: get().jobs.filter((j) => !hasEnded(j)) });
    },
  };
});

/** A job with nothing more to do: imported, failed, or left out (an index beside its file). */
export function hasEnded(job: Job): boolean {
  return job.stage === 'done' || job.stage === 'failed' || job.stage === 'skipped';
}

/** The most recent job of a profile, if any. */
export function latestJobFor(jobs: Job[], profileId: string): Job | undefined {
  for (let i = jobs.length - 1; i >= 0; i--) if (jobs[i].profileId === profileId) return jobs[i];
  return undefined;
}

/** Resolves once the service's background scoring of the profile is over (its `job` events say so). */
function scoringEnded(profileId: string): Promise<void> {
  return new Promise((resolve) => {
    const over = () => !useScoring.getState().progress[profileId];
    if (over()) return resolve();
    const stop = useScoring.subscribe(() => {
      if (!over()) return;
      stop();
      resolve();
    });
  });
}

/**
 * A file for an existing profile. It goes straight in only when nothing is at stake: the
 * profile has no readable DNA data yet and the file's name names nobody else. Otherwise
 * the person confirms, and is told when the file's name suggests someone else.
 */
export function offerFileTo(profileId: string, file: JobFile): void {
  const profile = profilesNow().find((p) => p.id === profileId);
  const otherPerson = profile ? otherPersonInFileName(file.name, profile) : null;
  if (hasUsableGenotype(genotypeNow(profileId)) || otherPerson)
    openDialog({ kind: 'replace-genotype', profileId, file });
  else useJobs.getState().replaceGenotype(profileId, file);
}
