/** The window: sidebar, the current screen, and what floats above it (drop target, dialogs, progress, toasts). */
import { useEffect, useRef, useState } from 'react';
import { setSignedOutHandler } from './api/client.js';
import { currentSession } from './api/client.js';
import { NoSessionError } from './api/session.js';
import { AppDialogs } from './components/AppDialogs.js';
import { DropLayer } from './components/DropLayer.js';
import { AlertIcon, Logo, Spinner } from './components/icons.js';
import { JobTray } from './components/JobTray.js';
import { Sidebar } from './components/Sidebar.js';
import { Toasts } from './components/Toasts.js';
import type { AppNotice } from '../../shared/desktop-bridge.js';
import { desktopBridge } from './platform/bridge.js';
import { openDialog } from './state/dialogs.js';
import { useJobs } from './state/jobs.js';
import { loadProfiles, useProfileList } from './state/profiles.js';
import { linksTo, useBrowser } from './state/browser.js';
import { navigate, routeHash, useRouter } from './state/router.js';
import { followServiceEvents } from './state/service-events.js';
import { useSettings } from './state/settings.js';
import { loadCatalog } from './state/traits.js';
import { AssessmentView } from './views/AssessmentView.js';
import { HomeView } from './views/HomeView.js';
import { ProfileView } from './views/ProfileView.js';
import { ReportView } from './views/ReportView.js';
import { SettingsView } from './views/SettingsView.js';

type Boot = { state: 'starting' } | { state: 'ready' } | { state: 'failed'; message: string; signIn: boolean };

function Screen() {
  const route = useRouter((s) => s.route);
  const first = useRef(true);
  // A new screen starts at its top, or where the person left it (the result list after a
  // visit to one result), and keyboard and screen-reader users land on it: on the link they
  // left it by when they come back (so the next Tab goes on from that row), else on the screen.
  useEffect(() => {
    const main = document.getElementById('main-content');
    const hash = routeHash(route);
    const { scroll, focus } = useBrowser.getState();
    const saved = scroll[hash] ?? 0;
    const left = focus[hash];
    const focusLeft = () => {
      const links = left && main ? linksTo(main, left.href) : undefined;
      const link = links ? (links[left.nth] ?? links[0]) : undefined;
      link?.focus({ preventScroll: true });
      return !!link;
    };
    main?.scrollTo(0, saved);
    if (first.current) first.current = false;
    else if (!focusLeft()) main?.focus({ preventScroll: true });
    // The list may still be laying out: restore once more on the next frame.
    if (saved || left)
      requestAnimationFrame(() => {
        main?.scrollTo(0, saved);
        if (left && document.activeElement === main) focusLeft();
      });
  }, [route]);

  switch (route.name) {
    case 'home':
      return <HomeView />;
    case 'profile':
      return <ProfileView key={route.id} id={route.id} />;
    case 'trait':
      return <AssessmentView key={`${route.id}/${route.code}`} id={route.id} code={route.code} />;
    case 'report':
      return <ReportView key={route.id} id={route.id} />;
    case 'settings':
      return <SettingsView />;
  }
}

/** Files and menu commands from the desktop app's operating-system integration. */
function useDesktopIntegration(enabled: boolean): void {
  useEffect(() => {
    const bridge = desktopBridge();
    if (!enabled || !bridge) return;
    const offFiles = bridge.onOpenFiles((files) => useJobs.getState().analyzeFiles(files));
    const offMenu = bridge.onMenu((command) => {
      const route = useRouter.getState().route;
      if (command === 'new-profile') openDialog({ kind: 'new-profile' });
      else if (command === 'settings') navigate({ name: 'settings' });
      else if (command === 'profiles') navigate({ name: 'home' });
      else if (command === 'export-report' && 'id' in route) navigate({ name: 'report', id: route.id });
    });
    return () => {
      offFiles();
      offMenu();
    };
  }, [enabled]);
}

export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'starting' });

  useEffect(() => {
    setSignedOutHandler((message) => setBoot({ state: 'failed', message, signIn: true }));
    currentSession()
      .then(async () => {
        followServiceEvents();
        // A list that cannot be read says so where it is shown (with "Try again").
        await Promise.all([
          loadProfiles().catch(() => undefined),
          loadCatalog().catch(() => undefined),
          useSettings.getState().loadInfo(),
        ]);
        setBoot({ state: 'ready' });
      })
      .catch((err: Error) => setBoot({ state: 'failed', message: err.message, signIn: err instanceof NoSessionError }));
  }, []);

  useDesktopIntegration(boot.state === 'ready');

  if (boot.state === 'starting') {
    return (
      <div className="boot" role="status">
        <Logo size={48} />
        <Spinner size={20} label="Starting Traitscope" />
      </div>
    );
  }
  if (boot.state === 'failed') {
    return (
      <div className="boot">
        <Logo size={48} />
        <div className="boot-message" role="alert">
          <h1>{boot.signIn ? 'Sign in to Traitscope' : 'Traitscope could not start'}</h1>
          <p>{boot.message}</p>
          {!boot.signIn ? (
            <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
              Try again
            </button>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Sidebar />
      <div className="main-scroll" id="main-content" tabIndex={-1}>
        <Screen />
      </div>
      <DropLayer />
      <JobTray />
      <Toasts />
      <AppDialogs />
      {/* Load errors of the profile list show where the list would be. */}
      <ProfilesLoadError />
      <DesktopNotice />
    </div>
  );
}

/** A notice of the desktop app's main process (the service moved to another port), until dismissed. */
function DesktopNotice() {
  const [notice, setNotice] = useState<AppNotice | null>(null);
  useEffect(() => desktopBridge()?.onNotice(setNotice), []);
  if (!notice) return null;
  return (
    <div className="banner banner-warn floating" role="alert" data-testid="desktop-notice">
      <AlertIcon size={18} />
      <div>
        <strong>{notice.title}</strong>
        <p>{notice.detail}</p>
      </div>
      <div className="banner-actions">
        <button type="button" className="button button-small" onClick={() => setNotice(null)}>
          Dismiss
        </button>
      </div>
    </div>
  );
}

function ProfilesLoadError() {
  const { error } = useProfileList();
  if (!error) return null;
  return (
    <div className="banner banner-error floating" role="alert">
      <AlertIcon size={18} />
      <div>
        <strong>Profiles could not be loaded.</strong>
        <p>{error}</p>
      </div>
      <div className="banner-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => void loadProfiles().catch(() => undefined)}
        >
          Try again
        </button>
      </div>
    </div>
  );
}
