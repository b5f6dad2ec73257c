import { inSection } from './define.ts';
import type { Clause } from './types.ts';

/** Spec 6 is prose, not a list: its statements are numbered in spec order. */
export const EVENT_CLAUSES: readonly Clause[] = inSection('6', [
  {
    id: '6.1',
    title: 'The service emits no events; webhooks are not available',
    text: 'The service emits no events. Webhooks are not available',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '6.2',
    title: 'No reservation transition history is provided',
    text: 'no reservation transition history is provided',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '6.3',
    title: 'GET /reservations and GET /reservations/{id} return the current state',
    text: 'State is observed by polling the read operations (GET /reservations and GET /reservations/{reservationId}), which return current state at least once',
    verification: 'wire',
    minProfile: 'book',
  },
]);
