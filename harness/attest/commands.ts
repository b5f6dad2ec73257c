import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CertifyError, EXIT } from '../runner/errors.ts';
import { parseTarget } from '../runner/options.ts';
import { CountersignError, countersign } from './countersign.ts';
import { EnvelopeFormatError, parseEnvelope, renderEnvelope } from './dsse.ts';
import { embeddedSubject } from './embedded-subject.ts';
import { digestsOfImage, ImageInspectError, type InspectImage, inspectWithEngine } from './image-subject.ts';
import { KeyError, loadSigningKey, loadVerifyingKey, type VerifyingKey } from './keys.ts';
import { type NamedSubject, verifyRecord } from './verify.ts';

export interface AttestIo {
  stdout: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Tests stub the container engine. */
  inspect?: InspectImage;
  /** Tests name another installation's root for --target embedded. */
  root?: string;
}

/** A subcommand chosen by the parse, run once parsing is over; resolves to the exit code. */
export type AttestCommand = (io: AttestIo) => Promise<number>;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * `verify` and `countersign`, subcommands of partner-api-certify. Their actions only say which one was chosen:
 * the CLI runs it after parsing, where its exit code and errors are handled as the certify run's are.
 */
export function addAttestCommands(program: Command, choose: (command: AttestCommand) => void): void {
  program
    .command('verify')
    .description(
      'check a signed certification record: each signature over the DSSE envelope, and the report and subject named.\nExit code: 0 valid, 1 invalid (the reason is printed), 2 unreadable.',
    )
    .argument('<record>', 'certification.intoto.json')
    .requiredOption(
      '--key <pub.pem>',
      'a public key (PEM) whose signature is required; repeat for each signer',
      collect,
    )
    .option('--report <report.json>', 'the report the record must name, byte for byte')
    .option('--image <ref>', 'the image the record must be about: NAME@sha256:… or a tag the container engine knows')
    .option('--target <url|embedded>', "the server it must be about (URL: by name), or this installation's reference")
    .action((record: string, flags: { key: string[]; report?: string; image?: string; target?: string }) => {
      choose((io) => runVerify(record, flags, io));
    });
  program
    .command('countersign')
    .description('add a signature to a certification record (the partner or operator after verify); each is reported')
    .argument('<record>', 'certification.intoto.json')
    .requiredOption('--key <key.pem|env:NAME>', 'the Ed25519 or ECDSA P-256 private key (PEM) to sign with')
    .option('--out <file>', 'write the countersigned record here (default: in place)')
    .action((record: string, flags: { key: string; out?: string }) => {
      choose((io) => runCountersign(record, flags, io));
    });
}

function readBytes(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new CertifyError(`cannot read ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function readEnvelope(file: string) {
  try {
    return parseEnvelope(readBytes(file, 'the record').toString('utf8'));
  } catch (error) {
    if (error instanceof EnvelopeFormatError) throw new CertifyError(`${file}: ${error.message}`);
    throw error;
  }
}

function keyOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof KeyError) throw new CertifyError(`--key: ${error.message}`);
    throw error;
  }
}

async function namedSubject(
  flags: { image?: string; target?: string },
  io: AttestIo,
): Promise<NamedSubject | undefined> {
  if (flags.image !== undefined && flags.target !== undefined) {
    throw new CertifyError('--image and --target name two subjects: pass one');
  }
  if (flags.image !== undefined) {
    try {
      return {
        kind: 'image',
        reference: flags.image,
        digests: await digestsOfImage(flags.image, io.inspect ?? inspectWithEngine),
      };
    } catch (error) {
      if (error instanceof ImageInspectError) throw new CertifyError(error.message);
      throw error;
    }
  }
  if (flags.target === undefined) return undefined;
  const target = parseTarget(flags.target);
  if (target.kind === 'embedded') return { kind: 'embedded', digest: embeddedSubject(io.root).digest.sha256 };
  return { kind: 'url', baseUrl: target.baseUrl };
}

async function runVerify(
  record: string,
  flags: { key: string[]; report?: string; image?: string; target?: string },
  io: AttestIo,
): Promise<number> {
  const envelope = readEnvelope(record);
  const keys = new Map<string, VerifyingKey>();
  for (const source of flags.key) {
    const key = keyOrExit(() => loadVerifyingKey(source, io.env));
    keys.set(key.keyid, keys.get(key.keyid) ?? key);
  }
  const report =
    flags.report === undefined ? undefined : { source: flags.report, bytes: readBytes(flags.report, 'the report') };
  const subject = await namedSubject(flags, io);
  const result = verifyRecord({
    envelope,
    keys: [...keys.values()],
    ...(report ? { report } : {}),
    ...(subject ? { subject } : {}),
  });
  const out = [`${record}:`, ...result.lines.map((line) => `  ${line}`)];
  out.push(result.valid ? 'valid' : `invalid: ${result.problems.join('; ')}`);
  io.stdout(`${out.join('\n')}\n`);
  return result.valid ? EXIT.passed : EXIT.failed;
}

async function runCountersign(record: string, flags: { key: string; out?: string }, io: AttestIo): Promise<number> {
  const envelope = readEnvelope(record);
  const key = keyOrExit(() => loadSigningKey(flags.key, io.env));
  let signed: ReturnType<typeof countersign>;
  try {
    signed = countersign(envelope, key);
  } catch (error) {
    if (!(error instanceof CountersignError)) throw error;
    io.stdout(`${record}: not countersigned: ${error.message}\n`);
    return EXIT.failed;
  }
  const target = flags.out ?? record;
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, renderEnvelope(signed));
    renameSync(temporary, target);
  } catch (error) {
    throw new CertifyError(`cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    rmSync(temporary, { force: true });
  }
  const lines = signed.signatures.map(
    (signature, index) =>
      `  signature ${index + 1}: keyid ${signature.keyid ?? '(none)'}${index === signed.signatures.length - 1 ? ` (added, ${key.algorithm})` : ''}`,
  );
  io.stdout(`${target}: countersigned by ${key.source}\n${lines.join('\n')}\n`);
  return EXIT.passed;
}
