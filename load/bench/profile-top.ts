/**
 * The functions that took the most CPU in a V8 CPU profile (`npm run bench -- --cpu-prof DIR`): self time summed
 * per function and file, the share of all samples, and the same for total (inclusive) time of a few named frames.
 *
 *   npx tsx load/bench/profile-top.ts DIR/CPU.*.cpuprofile [--top 25]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 25;
const files = args.filter((a, i) => !a.startsWith('--') && (topIndex < 0 || i !== topIndex + 1));

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.startsWith('file://') ? relative(process.cwd(), new URL(url).pathname) : url;
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    all += dt;
    if (node.callFrame.functionName === '(idle)') idle += dt;
    const name = label(node);
    self.set(name, (self.get(name) ?? 0) + dt);
    // Inclusive time: each distinct frame on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame) break;
      const l = label(frame);
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + dt);
    }
  });
  const busy = all - idle;
  const pct = (v: number) => `${((100 * v) / busy).toFixed(1)} %`;
  process.stdout.write(`${file}: ${(busy / 1e6).toFixed(1)} s busy of ${(all / 1e6).toFixed(1)} s\n`);
  process.stdout.write(`self time (share of busy samples):\n`);
  for (const [name, t] of [...self]
    .filter(([n]) => !n.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    process.stdout.write(`  ${pct(t).padStart(7)}  ${name}\n`);
  process.stdout.write(`total time, project frames:\n`);
  for (const [name, t] of [...total]
    .filter(([n]) => /reference-impl|contract\//.test(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    process.stdout.write(`  ${pct(t).padStart(7)}  ${name}\n`);
}
