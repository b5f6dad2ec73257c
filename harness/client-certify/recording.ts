import { readFileSync } from 'node:fs';
import { RECORDING_VERSION, type RecordedExchange } from '../../contract/client-clauses/exchange.ts';

/**
 * Reads a sandbox recording (JSON Lines, contract/client-clauses/exchange.ts). A line of another version or shape is
 * an error, not a line skipped: a judgement over a partial recording would pass clauses it never saw broken.
 */
export function parseRecording(text: string): RecordedExchange[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`recording line ${index + 1} is not JSON`);
      }
      const exchange = value as Partial<RecordedExchange>;
      if (exchange.v !== RECORDING_VERSION || typeof exchange.seq !== 'number' || typeof exchange.path !== 'string') {
        throw new Error(`recording line ${index + 1} is not a version ${RECORDING_VERSION} exchange`);
      }
      return exchange as RecordedExchange;
    })
    .sort((a, b) => a.seq - b.seq);
}

export function readRecording(file: string): RecordedExchange[] {
  return parseRecording(readFileSync(file, 'utf8'));
}
