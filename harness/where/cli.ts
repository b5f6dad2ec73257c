#!/usr/bin/env -S node --import tsx
// `npm run where -- <clause…>`: what the project holds about a clause (harness/where/where.ts).
import { Command } from 'commander';
import { clauseById } from '../../contract/clauses/index.ts';
import { REPO_ROOT } from '../../contract/test-support/source-files.ts';
import { listReferenceFaults } from '../target/embedded.ts';
import { clausesOf, formatWhere, where } from './where.ts';

const program = new Command('where')
  .description(
    "Everything about a clause of the clause catalogue from its id: the spec's sentence, the checks that judge it, the places that file observations under it, the faults and benign variants that prove it, its rows in docs/ambiguities.md.\nA section id (4.8) lists the section's clauses.\nExit code: 0 found, 2 an id that is neither a clause nor a section.",
  )
  .argument(
    '<ids...>',
    'clause ids (4.8.2, C5.3a is not one: client clauses are in docs/client-clauses.md) or section ids',
  )
  .option('--json', 'the answers as JSON')
  .action((ids: string[], flags: { json?: boolean }) => {
    // The registry is the reference's, asked of its entry point: the harness never imports the reference.
    const registry = listReferenceFaults();
    const answers = [];
    for (const id of ids) {
      if (clauseById(id)) {
        answers.push(where(REPO_ROOT, id, registry));
        continue;
      }
      const section = clausesOf(id);
      if (section.length === 0) {
        process.stderr.write(
          `where: ${id} is neither a clause nor a section of the clause catalogue (contract/clauses)\n`,
        );
        process.exit(2);
      }
      if (!flags.json) {
        process.stdout.write(`Section ${id}: ${section.length} clauses\n`);
        for (const clause of section) process.stdout.write(`  ${clause.id.padEnd(9)} ${clause.title}\n`);
        process.stdout.write('\n');
      }
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(answers, null, 2)}\n`);
    else for (const answer of answers) if (answer) process.stdout.write(`${formatWhere(answer)}\n`);
  });

program.parse();
