/**
 * Natural order of clause ids: numeric segment by segment, so 4.2 < 4.10; a bare item sorts before its
 * lettered parts and those before the next item (4.7.9 < 4.7.9a < 4.7.9b < 4.7.10); a parent sorts first.
 */
export function compareClauseIds(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = compareSegments(left[i] ?? '', right[i] ?? '');
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

function compareSegments(a: string, b: string): number {
  const [, numA = '', partA = ''] = /^(\d*)(.*)$/.exec(a) ?? [];
  const [, numB = '', partB = ''] = /^(\d*)(.*)$/.exec(b) ?? [];
  const byNumber = Number(numA) - Number(numB);
  if (byNumber !== 0) return byNumber;
  return partA < partB ? -1 : partA > partB ? 1 : 0;
}
