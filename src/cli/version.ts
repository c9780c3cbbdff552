// The package's version, read from the package.json that ships with the code: two levels up from a
// clone's src/cli/, three from the installed package's dist/src/cli/.
import { readFileSync } from 'node:fs';

export function packageVersion(from: string | URL = import.meta.url): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, from), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'reelay' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not at this level: try the next one.
    }
  }
  throw new Error('package.json of reelay not found beside the code');
}
