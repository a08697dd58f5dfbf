/**
 * Debian's Chromium as the tests and benchmarks drive it (playwright-core): the flags for a
 * headless run as root with no GPU and nothing fetched from the network, and two features
 * switched off. Chromium preloads its address bar's popup as a WebUI page in a renderer of
 * its own, even headless, where there is no address bar: that page was most of a launch's
 * cost (Chromium's processes 2.5–2.8 s of CPU per launch with it, 0.9–1.05 s without).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium reads only the last `--disable-features`, and playwright-core passes its own
 * list before ours (the chromiumSwitches module of playwright-core 1.65), so ours repeats that list's
 * entries that apply to Chromium on Linux.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'].join(',')}`,
];
