import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_PORT, ImageOptionError, parseImageFlags } from './image-options.ts';

const parse = (flags: Parameters<typeof parseImageFlags>[0], env: NodeJS.ProcessEnv = {}) =>
  parseImageFlags(flags, env);

describe('--image options', () => {
  it('none without --image', () => expect(parse({})).toBeUndefined());

  it('defaults: port 8080, host network, readiness from the image', () => {
    expect(parse({ image: 'partner-api-reference:local' })).toMatchObject({
      image: 'partner-api-reference:local',
      env: {},
      port: DEFAULT_IMAGE_PORT,
      network: 'host',
    });
    expect(parse({ image: 'x' })?.readyPath).toBeUndefined();
  });

  it('accepts registry, path, tag and digest forms', () => {
    for (const image of ['registry.example.test:5000/team/api:1.2.3', `api@sha256:${'a'.repeat(64)}`, 'a/b/c']) {
      expect(parse({ image })?.image).toBe(image);
    }
  });

  it('--image-env K=V and K (taken from this environment); values may hold "="', () => {
    expect(parse({ image: 'x', imageEnv: ['A=1', 'B=x=y', 'C'] }, { C: 'from-env' })?.env).toEqual({
      A: '1',
      B: 'x=y',
      C: 'from-env',
    });
  });

  it.each([
    [{ image: 'bad image' }, /--image: "bad image" is not an image reference/],
    [{ image: '--config' }, /not an image reference/],
    [{ image: 'x', imageEnv: ['1A=2'] }, /--image-env: "1A" is not a variable name/],
    [{ image: 'x', imageEnv: ['MISSING'] }, /MISSING is not set in this environment/],
    [{ image: 'x', imagePort: '70000' }, /--image-port: expected a port/],
    [{ image: 'x', imagePort: 'http' }, /--image-port/],
    [{ image: 'x', imageReady: 'health' }, /--image-ready: expected an HTTP path/],
    [{ image: 'x', imageNetwork: 'overlay' }, /--image-network: expected host or bridge/],
    [{ image: 'x', imagePort: '0', imageNetwork: 'bridge' }, /needs --image-network host/],
    [{ imagePort: '8080' }, /--image-port applies to --image only/],
  ])('refuses %o with a message', (flags, message) => {
    expect(() => parse(flags)).toThrow(ImageOptionError);
    expect(() => parse(flags)).toThrow(message);
  });

  it('never echoes an --image-env value', () => {
    expect(() => parse({ image: 'x', imageEnv: ['BAD NAME=s3cret-value'] })).toThrow(/^(?!.*s3cret-value)/);
  });
});
