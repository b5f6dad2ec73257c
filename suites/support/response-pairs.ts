/**
 * The listing reads answered in both representations, successes and refusals: the requests every check that
 * compares or judges XML answers to the same calls shares (4.14's response rules, 4.13.5a's same status and code,
 * 9.4's versioned error roots, 7.2.7's codes on a first round). Sent once for the run (sharedStep), each check judging
 * its own clause on them: a target limits each client's requests a minute (spec 8).
 */
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import { requireRepresentation } from '../../harness/check/expect-api.ts';
import type { Representation } from '../../harness/http/representation.ts';
import { type ListingPath, runUnknownCode, sharedListingRead, someCodes } from './listings.ts';
import type { Provoked } from './provoked.ts';
import { freshRead, MALFORMED_TOKEN, type ReadAs, sharedRead } from './shared-reads.ts';
import { sharedStep } from './shared-steps.ts';

/** One call of the pairs: its label, how it is sent in a representation, and for a refusal the clause stating it. */
export interface PairCall {
  call: string;
  /** The call in a representation, answered once for the run (the reads other shared sets ask too: sharedRead). */
  send: (representation: Representation) => Promise<ApiResult>;
  /** The same call sent again now (a check that judges a repeat). */
  sendAgain: (representation: Representation) => Promise<ApiResult>;
  /** A call the target must refuse: the clause that says so (a provocation served is filed there, provoked.ts). */
  refusedBy?: string;
}

/** One call answered in XML and in JSON. */
export interface ResponsePair {
  call: string;
  xml: ApiResult;
  json: ApiResult;
  refusedBy?: string;
}

/**
 * The calls: every listing read of partner A with its own token (the reads other checks share, sharedListingRead),
 * then four refusals: an unknown location, no token, a malformed token, a token lacking the scope.
 */
export async function listingPairCalls(t: CheckContext): Promise<PairCall[]> {
  const { vehicleCode, locationCode } = await someCodes(t, 'partnerA');
  const unknown = runUnknownCode(t);
  const ask = (path: string, as: ReadAs) => ({
    send: (representation: Representation) => sharedRead(t, path, { ...as, representation }),
    sendAgain: (representation: Representation) => freshRead(t, path, { ...as, representation }),
  });
  const reads: ListingPath[] = [
    '/locations',
    `/locations/${locationCode}`,
    '/fleet',
    `/fleet/${vehicleCode}`,
    '/rates',
  ];
  return [
    ...reads.map((path) => ({
      call: `GET ${path}`,
      send: (rep: Representation) => sharedListingRead(t, path, 'partnerA', rep),
      sendAgain: (rep: Representation) => freshRead(t, path, { representation: rep }),
    })),
    { call: `GET /locations/${unknown}`, refusedBy: '4.3.1', ...ask(`/locations/${unknown}`, {}) },
    { call: 'GET /fleet without a token', refusedBy: '5.6a', ...ask('/fleet', { token: null }) },
    { call: 'GET /fleet with a malformed token', refusedBy: '5.6a', ...ask('/fleet', { token: MALFORMED_TOKEN }) },
    { call: 'GET /rates lacking rates:read', refusedBy: '4.0.9', ...ask('/rates', { scopes: ['fleet:read'] }) },
  ];
}

/**
 * Every call of listingPairCalls in XML, then in JSON: sent once for the run's checks (sharedStep). Not judged here:
 * a check that compares statuses and codes judges them whatever the representation answered (4.13.5a); one that
 * reads the XML documents takes xmlResponsePairs.
 */
export function responsePairs(t: CheckContext): Promise<ResponsePair[]> {
  return sharedStep(t, 'xml response pairs', async () => {
    const pairs: ResponsePair[] = [];
    for (const { call, send, refusedBy } of await listingPairCalls(t)) {
      const xml = await send('xml');
      pairs.push({ call, xml, json: await send('json'), ...(refusedBy === undefined ? {} : { refusedBy }) });
    }
    return pairs;
  });
}

/**
 * The pairs whose XML documents a check reads (4.14's response rules): an XML request answered in JSON is 4.13.1a's
 * (filed there), and the check is blocked, as there is no XML to judge.
 */
export async function xmlResponsePairs(t: CheckContext): Promise<ResponsePair[]> {
  const pairs = await responsePairs(t);
  for (const { call, xml } of pairs) requireRepresentation(xml, 'xml', call);
  return pairs;
}

/** The refusals of the pairs in one representation, as provocations (provoked.ts). */
export function provokedOf(pairs: readonly ResponsePair[], representation: Representation): Provoked[] {
  return pairs.flatMap(({ call, refusedBy, ...answers }) =>
    refusedBy === undefined ? [] : [{ name: call, clauseId: refusedBy, res: answers[representation] }],
  );
}
