import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessExit, run } from './own-services.ts';

/**
 * Disk faults for the SQLite store: a small tmpfs of the test's own that can be filled to the last byte and freed
 * again, and files turned read-only under a server that holds them open (`chattr +i`). Both need root (mount,
 * CAP_LINUX_IMMUTABLE); a test told a fault is unavailable skips with the reason.
 */

export interface SmallDisk {
  /** The mount point: a tmpfs of the requested size. */
  readonly dir: string;
  /** Writes a filler file until the disk has no byte left (ENOSPC). */
  fill(): void;
  /** Deletes the filler: the space is back. */
  free(): void;
  /** Unmounts (lazily if still busy) and removes the mount point. */
  close(): Promise<void>;
}

const FILLER = '.filler';

/** Mounts a tmpfs of `sizeBytes` on a new temporary folder, or says why it cannot. */
export async function mountSmallDisk(sizeBytes: number): Promise<SmallDisk | { unavailable: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'own-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0700`, 'tmpfs', dir], { timeoutMs: 10_000 });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `cannot mount a tmpfs (needs root): ${(error as Error).message.split('\n')[0]}` };
  }
  const unregister = onProcessExit(() => {
    try {
      // Synchronous on purpose: the process is exiting.
      execFileSync('umount', ['-l', dir]);
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const filler = join(dir, FILLER);
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Big chunks first, then down to one byte: tmpfs allocates whole pages, so the last page is taken too.
        for (const size of [1 << 20, 1 << 16, 1 << 12, 1]) {
          const chunk = Buffer.alloc(size);
          for (;;) {
            try {
              writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async close() {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      rmSync(dir, { recursive: true, force: true });
      unregister();
    },
  };
}

/** chattr +i / -i: an immutable file refuses writes even through descriptors already open, and even to root. */
export async function setImmutable(paths: readonly string[], immutable: boolean): Promise<void> {
  await run('chattr', [immutable ? '+i' : '-i', ...paths], { timeoutMs: 10_000 });
}

/** Turns files read-only under whoever holds them open, until restore(); an exiting test process restores them. */
export async function turnReadOnly(paths: readonly string[]): Promise<{ restore(): Promise<void> }> {
  const unregister = onProcessExit(() => execFileSync('chattr', ['-i', ...paths]));
  await setImmutable(paths, true);
  return {
    async restore() {
      await setImmutable(paths, false);
      unregister();
    },
  };
}

/**
 * Whether files under `dir` can be turned read-only under an open descriptor: root may set the immutable flag and
 * the filesystem enforces it on open files (ext4 does; tmpfs, for one, does not).
 */
export async function immutableEnforcedIn(dir: string): Promise<true | { unavailable: string }> {
  const probe = join(dir, '.immutable-probe');
  const fd = openSync(probe, 'w');
  try {
    await setImmutable([probe], true);
  } catch (error) {
    closeSync(fd);
    unlinkSync(probe);
    return { unavailable: `cannot set the immutable flag: ${(error as Error).message.split('\n')[0]}` };
  }
  let enforced = false;
  try {
    writeSync(fd, 'x');
  } catch (error) {
    enforced = (error as NodeJS.ErrnoException).code === 'EPERM';
  } finally {
    await setImmutable([probe], false);
    closeSync(fd);
    unlinkSync(probe);
  }
  return enforced
    ? true
    : { unavailable: `the filesystem of ${dir} does not enforce the immutable flag on open files` };
}
