/**
 * Drop anywhere: while files are dragged over the window a full-window target appears.
 * On a profile it offers two places to drop: replace that profile's DNA file (confirmed
 * first) or create new profiles. Elsewhere every file becomes a new profile.
 */
import { useEffect, useRef, useState } from 'react';
import { profileName } from '../lib/format.js';
import { offerFileTo, useJobs } from '../state/jobs.js';
import { hasFile, useGenotypes, useProfileList } from '../state/profiles.js';
import { useRouter } from '../state/router.js';
import { FileIcon, PlusIcon, UploadIcon } from './icons.js';

function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

export function DropLayer() {
  const [dragging, setDragging] = useState(false);
  const [hoverZone, setHoverZone] = useState<string | null>(null);
  const depth = useRef(0);
  const route = useRouter((s) => s.route);
  const { profiles } = useProfileList();
  const genotypes = useGenotypes();
  const openProfile =
    route.name === 'profile' || route.name === 'trait' || route.name === 'report'
      ? profiles.find((p) => p.id === route.id)
      : undefined;
  // A profile without a DNA file simply receives the file; one with a file is asked first.
  const openHasFile = openProfile ? hasFile(genotypes[openProfile.id]) : false;
  const targetRef = useRef({ profile: openProfile, hasFile: openHasFile });
  targetRef.current = { profile: openProfile, hasFile: openHasFile };

  useEffect(() => {
    const onEnter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setDragging(true);
    };
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      const zone = (e.target as Element | null)?.closest?.('[data-drop-zone]')?.getAttribute('data-drop-zone') ?? null;
      setHoverZone(zone);
    };
    const onLeave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) {
        setDragging(false);
        setHoverZone(null);
      }
    };
    const onDrop = (e: DragEvent) => {
      // Always stop the browser from opening the file in place of the app.
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      setHoverZone(null);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) return;
      const zone = (e.target as Element | null)?.closest?.('[data-drop-zone]')?.getAttribute('data-drop-zone');
      const { profile: target } = targetRef.current;
      if (zone === 'replace' && target && files.length === 1) {
        offerFileTo(target.id, files[0]);
      } else {
        useJobs.getState().analyzeFiles(files);
      }
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  if (!dragging) return null;
  return (
    <div className="drop-layer" data-testid="drop-layer">
      <div className={`drop-zones ${openProfile ? 'two' : ''}`}>
        {openProfile ? (
          <div
            className={`drop-zone ${hoverZone === 'replace' ? 'is-hover' : ''}`}
            data-drop-zone="replace"
            data-testid="drop-replace"
          >
            <FileIcon size={40} />
            {openHasFile ? (
              <>
                <strong>Replace {profileName(openProfile)}’s DNA file</strong>
                <span>You will be asked to confirm. If the new file can’t be read, the current results stay.</span>
              </>
            ) : (
              <>
                <strong>Add to {profileName(openProfile)}</strong>
                <span>One file: it becomes this profile’s DNA data.</span>
              </>
            )}
          </div>
        ) : null}
        <div
          className={`drop-zone ${hoverZone === 'new' ? 'is-hover' : ''}`}
          data-drop-zone="new"
          data-testid="drop-new"
        >
          {openProfile ? <PlusIcon size={40} /> : <UploadIcon size={40} />}
          <strong>{openProfile ? 'Create new profiles' : 'Drop to analyze'}</strong>
          <span>
            Each file becomes a profile, named after the file. 23andMe, AncestryDNA, MyHeritage, FamilyTreeDNA, VCF, zip
            or gz.
          </span>
        </div>
      </div>
    </div>
  );
}
