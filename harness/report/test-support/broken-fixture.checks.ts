// A suite file that cannot load: the reporter must report it as a harness error, not lose it.
throw new Error('suite failed to import');
