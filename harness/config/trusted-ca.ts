import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** A CA file the harness cannot use; the message names the file and the problem, never its content. */
export class CaFileError extends Error {
  override readonly name = 'CaFileError';
}

const cache = new Map<string, string[]>();

/** The PEM certificates of a CA file, read once per process (every connection of the run trusts the same file). */
export function readCaFile(file: string): string[] {
  const cached = cache.get(file);
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CaFileError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0) throw new CaFileError(`${file} holds no PEM certificate (BEGIN CERTIFICATE)`);
  certificates.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new CaFileError(`${file}: certificate #${i + 1} is not a valid X.509 certificate`);
    }
  });
  cache.set(file, certificates);
  return certificates;
}

/**
 * What a TLS client of the run trusts: Node's bundled public roots plus the target's private CA. A `ca` option
 * replaces Node's defaults, so the roots are listed again: a control API behind a public certificate keeps working.
 */
export function trustedCertificates(caFile: string): string[] {
  return [...rootCertificates, ...readCaFile(caFile)];
}

const contexts = new Map<string, SecureContext>();

/**
 * `trustedCertificates` as a TLS context, made once per CA file. Given `ca`, every TLS connection builds its own
 * context and parses the 140-odd public roots again: 43 % of the suite's CPU in a full certification of the HTTPS
 * embedded target, which opens many connections (docs/measurements/bench-2026-11-24-to-29.md "The suite's own time").
 */
export function trustedSecureContext(caFile: string): SecureContext {
  let context = contexts.get(caFile);
  if (!context) {
    context = createSecureContext({ ca: trustedCertificates(caFile) });
    contexts.set(caFile, context);
  }
  return context;
}
