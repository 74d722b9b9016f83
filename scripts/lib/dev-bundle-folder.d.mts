// Types of dev-bundle-folder.mjs (plain JavaScript, run by the launcher before TypeScript can be compiled).
export const DEV_BUNDLE_INPUTS: string[];

export function devBundleFolder(options: {
  /** The clone's root folder. */
  root: string;
  /** Fills a temporary folder with the bundle (scripts/dev-bundle.ts's buildDevBundle). */
  build: (folder: string) => Promise<void>;
  onBuild?: () => void;
  onWait?: () => void;
}): Promise<string>;
