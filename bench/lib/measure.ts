// Small measuring helpers shared by the scenarios: percentiles, timed requests, dataset picks.
import { createDataset } from '../../emulator/dataset/dataset.ts';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export type Timed = { status: number; ms: number; body: string; headers: Headers };

export async function timedFetch(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, body, headers: response.headers };
}

export type Picks = {
  /** Public users with at least `minVideos` videos, by username. */
  usersWithVideos(minVideos: number): string[];
  /** Video ids of ordinary users, skipping the manifest's special ones. */
  videoIds(countMax: number): string[];
  /** Names of the dataset's tags (at most `countMax`). */
  tags(countMax: number): string[];
};

/** The emulator's dataset for the same seed, to name thousands of distinct real entities. */
export function datasetPicks(seed: number): Picks {
  const ds = createDataset(seed);
  const ordinary = ds.users.filter((u) => u.index > 7 && !u.privateAccount && !u.banned);
  return {
    usersWithVideos: (minVideos) => ordinary.filter((u) => u.videoSlots >= minVideos).map((u) => u.uniqueId),
    tags: (countMax) => ds.lists.tags.slice(0, countMax).map((t) => t.title),
    videoIds(countMax) {
      const ids: string[] = [];
      for (const user of ordinary) {
        for (let k = 0; k < user.videoSlots && ids.length < countMax; k++) {
          const video = ds.videos.video(user.videoStart + k);
          if (ds.videos.isVisible(video)) ids.push(video.id);
        }
        if (ids.length >= countMax) break;
      }
      return ids;
    },
  };
}
