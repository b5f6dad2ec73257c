import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { parseEnvelope } from './dsse.ts';
import { digestsOfImage, type ImageInspection, imageSubject, repositoryOf, subjectIsImage } from './image-subject.ts';
import { loadVerifyingKey } from './keys.ts';
import { readStatement } from './statement.ts';
import { type Fixture, signedSample } from './test-support/record-fixture.ts';
import { verifyRecord } from './verify.ts';

const MANIFEST = 'a'.repeat(64);
const IMAGE_ID = 'b'.repeat(64);
const OTHER_MANIFEST = 'c'.repeat(64);

/** What `docker image inspect` answers for a pulled image (the engine is stubbed: no container engine needed). */
const pulled: ImageInspection = {
  Id: `sha256:${IMAGE_ID}`,
  RepoDigests: [
    `mirror.example.test/partner-api@sha256:${OTHER_MANIFEST}`,
    `registry.example.test:5000/partner-api@sha256:${MANIFEST}`,
  ],
};

const fixtures: Fixture[] = [];
afterAll(() => {
  for (const fixture of fixtures) rmSync(fixture.dir, { recursive: true, force: true });
});

describe('the digest of an --image record', () => {
  test('the registry manifest digest of the repository the run named, as docker reports it', () => {
    expect(imageSubject('registry.example.test:5000/partner-api:1.2.3', pulled)).toEqual({
      name: 'registry.example.test:5000/partner-api',
      digest: { sha256: MANIFEST },
      annotations: {
        digestOf: 'the image manifest (docker image inspect: RepoDigests)',
        imageId: `sha256:${IMAGE_ID}`,
        reference: 'registry.example.test:5000/partner-api:1.2.3',
      },
    });
    // Docker Hub's short and long names are one repository.
    const hub = imageSubject('node:20', {
      Id: `sha256:${IMAGE_ID}`,
      RepoDigests: [`docker.io/library/node@sha256:${MANIFEST}`],
    });
    expect(hub.digest.sha256).toBe(MANIFEST);
  });

  test('a local build, never pushed, is named by its image ID, and the record says so', () => {
    const local = imageSubject('partner-api-reference:local', { Id: `sha256:${IMAGE_ID}`, RepoDigests: [] });
    expect(local.name).toBe('partner-api-reference');
    expect(local.digest.sha256).toBe(IMAGE_ID);
    expect(local.annotations?.digestOf).toMatch(/image ID .*never pushed or pulled/);
  });

  test('repository names: a registry port is not a tag, a digest is dropped', () => {
    expect(repositoryOf('registry:5000/team/app')).toBe('registry:5000/team/app');
    expect(repositoryOf('registry:5000/team/app:1.0')).toBe('registry:5000/team/app');
    expect(repositoryOf(`app@sha256:${MANIFEST}`)).toBe('app');
  });

  test('verify --image: a pinned reference is taken at its word; a tag is asked of the engine', async () => {
    let asked = 0;
    const inspect = async () => {
      asked += 1;
      return pulled;
    };
    expect(await digestsOfImage(`app@sha256:${MANIFEST}`, inspect)).toEqual([MANIFEST]);
    expect(asked).toBe(0);
    expect(await digestsOfImage('app:1', inspect)).toEqual([IMAGE_ID, OTHER_MANIFEST, MANIFEST]);
    const subject = imageSubject('registry.example.test:5000/partner-api:1.2.3', pulled);
    expect(subjectIsImage([subject], [MANIFEST])).toBe(true);
    expect(subjectIsImage([subject], [IMAGE_ID])).toBe(true);
    expect(subjectIsImage([subject], [OTHER_MANIFEST.replace(/c$/, 'd')])).toBe(false);
  });

  test('a whole record: the run asks the engine once, the subject carries its digest, verify --image matches it', async () => {
    const asked: string[] = [];
    const fixture = await signedSample({
      target: {
        baseUrl: 'http://127.0.0.1:8080',
        embedded: false,
        image: 'registry.example.test:5000/partner-api:1.2.3',
      },
      inspect: async (reference) => {
        asked.push(reference);
        return pulled;
      },
    });
    fixtures.push(fixture);
    expect(asked).toEqual(['registry.example.test:5000/partner-api:1.2.3']);
    const envelope = parseEnvelope(readFileSync(fixture.record, 'utf8'));
    const statement = readStatement(Buffer.from(envelope.payload, 'base64'));
    expect(statement.subject.map((s) => s.digest.sha256)).toEqual([MANIFEST]);
    expect(statement.predicate.target.image).toBe('registry.example.test:5000/partner-api:1.2.3');

    const keys = [loadVerifyingKey(fixture.implementer.publicFile, {})];
    const pinned = `registry.example.test:5000/partner-api@sha256:${MANIFEST}`;
    expect(
      verifyRecord({ envelope, keys, subject: { kind: 'image', reference: pinned, digests: [MANIFEST] } }).valid,
    ).toBe(true);
    const flippedDigest = `${MANIFEST.slice(0, -1)}b`;
    const other = verifyRecord({
      envelope,
      keys,
      subject: { kind: 'image', reference: 'x', digests: [flippedDigest] },
    });
    expect(other.valid).toBe(false);
    expect(other.problems[0]).toContain(`--image x is sha256:${flippedDigest}`);
  });
});
