/**
 * The signed record's file name beside the reports (in-toto's envelope spec asks for `<name>.json`). Its own module
 * so the report writer can clear a stale record without loading the signing code.
 */
export const RECORD_FILE = 'certification.intoto.json';
