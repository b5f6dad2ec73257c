import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from './error-handler.ts';

/**
 * Which failures are the dependency's (503 DEPENDENCY_UNAVAILABLE, retryable) rather than the server's own (500
 * INTERNAL_ERROR): the store's connection, its server going away, the disk under SQLite (spec 7.3).
 */

const withCode = (code: string) => Object.assign(new Error(code), { code });

/** The error SQLite really raises for `sql` on a database prepared by `setup`. */
function sqliteError(setup: (db: Database.Database) => void, sql: string, readonly = false): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'error-handler-'));
  try {
    const file = join(dir, 'x.db');
    const writer = new Database(file);
    setup(writer);
    writer.close();
    const db = new Database(file, { readonly });
    try {
      db.exec(sql);
    } catch (error) {
      return error;
    } finally {
      db.close();
    }
    throw new Error(`no error from ${sql}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('isStoreUnavailable', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_FULL',
    'SQLITE_IOERR',
    'SQLITE_IOERR_WRITE',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_READONLY',
    'SQLITE_READONLY_DBMOVED',
    '57P01',
    '57P02',
    '57P03',
    '53300',
    '08006',
    '08001',
    'ECONNREFUSED',
    'ECONNRESET',
  ])('%s: the dependency', (code) => {
    expect(isStoreUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    'SQLITE_ERROR',
    'SQLITE_CONSTRAINT_FOREIGNKEY',
    'SQLITE_CORRUPT',
    'SQLITE_FULLY',
    '23505',
    '40001',
    '57014',
    '0800',
  ])('%s: not the dependency', (code) => {
    expect(isStoreUnavailable(withCode(code))).toBe(false);
  });

  it('node-postgres connection loss (no code): the dependency; any other error is not', () => {
    expect(isStoreUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStoreUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isStoreUnavailable(new Error('something else'))).toBe(false);
    expect(isStoreUnavailable(null)).toBe(false);
  });

  it('the errors SQLite really raises for a full file and a read-only one', () => {
    const full = sqliteError(
      (db) => db.exec('CREATE TABLE t (x TEXT)'),
      'PRAGMA max_page_count = 2; INSERT INTO t VALUES (zeroblob(100000))',
    );
    expect(full).toMatchObject({ code: 'SQLITE_FULL' });
    expect(isStoreUnavailable(full)).toBe(true);
    const readOnly = sqliteError((db) => db.exec('CREATE TABLE t (x TEXT)'), "INSERT INTO t VALUES ('x')", true);
    expect(readOnly).toMatchObject({ code: 'SQLITE_READONLY' });
    expect(isStoreUnavailable(readOnly)).toBe(true);
  });
});
