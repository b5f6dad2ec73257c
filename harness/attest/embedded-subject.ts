import { packageInfo } from '../../contract/package-info.ts';
import { PROJECT_ROOT } from '../runner/paths.ts';
import { manifestDigest, sourceFilesUnder } from './digests.ts';
import type { ResourceDescriptor } from './statement.ts';

/**
 * What the embedded target runs: the reference implementation's entry point and everything it reads, the operator
 * data and the contract it imports (from a clone, TypeScript; in the compiled package, dist/'s JavaScript). Its
 * dependencies in node_modules are named by the package version, not hashed.
 */
export const REFERENCE_FOLDERS = ['reference-impl', 'fixtures', 'contract'] as const;

export function embeddedSubject(root: string = PROJECT_ROOT): ResourceDescriptor {
  const manifest = manifestDigest(root, sourceFilesUnder(root, REFERENCE_FOLDERS));
  const { name, version } = packageInfo();
  return {
    name: `${name}@${version}/reference-impl`,
    digest: { sha256: manifest.sha256 },
    annotations: {
      digestOf: `sha256sum manifest of ${REFERENCE_FOLDERS.join('/, ')}/ (${manifest.files} files, unit tests left out)`,
    },
  };
}
