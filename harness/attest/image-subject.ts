import type { ResourceDescriptor } from './statement.ts';

/** The two digests `docker image inspect` reports: the image ID (its config) and the registry manifests. */
export interface ImageInspection {
  Id: string;
  RepoDigests?: string[];
}

export type InspectImage = (reference: string) => Promise<ImageInspection>;

/** An image the engine cannot describe; the message names the image and the engine's complaint. */
export class ImageInspectError extends Error {
  override readonly name = 'ImageInspectError';
}

/** Asks the container engine, found as --image finds it (testcontainers: DOCKER_HOST, the default socket). */
export const inspectWithEngine: InspectImage = async (reference) => {
  // Loaded on demand, as for --image: a record of any other target never pays for the container client.
  const { getContainerRuntimeClient, ImageName } = await import('testcontainers');
  try {
    const client = await getContainerRuntimeClient();
    const info = await client.image.inspect(ImageName.fromString(reference));
    return { Id: info.Id, RepoDigests: info.RepoDigests ?? [] };
  } catch (error) {
    const detail = String((error as Error)?.message ?? error).split('\n')[0];
    throw new ImageInspectError(`the container engine cannot describe image ${reference} (${detail})`);
  }
};

const DIGEST = /^sha256:([a-f0-9]{64})$/;

/** `registry:5000/team/app:1.2@sha256:…` → `registry:5000/team/app` (a port's colon is not a tag's). */
export function repositoryOf(reference: string): string {
  const withoutDigest = reference.split('@')[0] ?? reference;
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

/** `docker.io/library/node` and `node` name one repository; RepoDigests use either form. */
function sameRepository(a: string, b: string): boolean {
  const normal = (name: string) => name.replace(/^docker\.io\//, '').replace(/^library\//, '');
  return normal(a) === normal(b);
}

/**
 * The subject of an --image record. The registry manifest digest when the engine knows one (the image was pushed or
 * pulled): it is what `cosign verify-attestation` compares the subject with. A local build has none; its image ID
 * is then the digest, and the annotation says so.
 */
export function imageSubject(reference: string, inspected: ImageInspection): ResourceDescriptor {
  const imageId = inspected.Id;
  const repository = repositoryOf(reference);
  const manifests = (inspected.RepoDigests ?? []).flatMap((entry) => {
    const at = entry.lastIndexOf('@');
    const hex = DIGEST.exec(entry.slice(at + 1))?.[1];
    return at > 0 && hex ? [{ repository: entry.slice(0, at), hex }] : [];
  });
  const manifest = manifests.find((m) => sameRepository(m.repository, repository)) ?? manifests[0];
  if (manifest) {
    return {
      name: manifest.repository,
      digest: { sha256: manifest.hex },
      annotations: { digestOf: 'the image manifest (docker image inspect: RepoDigests)', imageId, reference },
    };
  }
  const hex = DIGEST.exec(imageId)?.[1];
  if (!hex) throw new ImageInspectError(`image ${reference}: the engine reports no sha256 image ID (${imageId})`);
  return {
    name: repository,
    digest: { sha256: hex },
    annotations: {
      digestOf: 'the image ID (docker image inspect: Id); no registry digest: the image was never pushed or pulled',
      imageId,
      reference,
    },
  };
}

/** The digests an image reference stands for: the one it pins, or what the engine reports for it. */
export async function digestsOfImage(reference: string, inspect: InspectImage): Promise<string[]> {
  const pinned = /@sha256:([a-f0-9]{64})$/.exec(reference)?.[1];
  if (pinned) return [pinned];
  const inspected = await inspect(reference);
  return [inspected.Id, ...(inspected.RepoDigests ?? [])]
    .map((entry) => DIGEST.exec(entry.slice(entry.lastIndexOf('@') + 1))?.[1])
    .filter((hex): hex is string => hex !== undefined);
}

/** Whether the record's subject is that image: a subject digest, or the image ID it annotates, among its digests. */
export function subjectIsImage(subjects: readonly ResourceDescriptor[], digests: readonly string[]): boolean {
  return subjects.some(
    (subject) =>
      digests.includes(subject.digest.sha256) ||
      digests.some((hex) => subject.annotations?.imageId === `sha256:${hex}`),
  );
}
