import sys, glob, statistics as st, re, os
# usage: echosum.py DIR A B  -> per pair steady p50 (median of windows 3..22), ratio B/A, settled
d, A, B = sys.argv[1:4]
def load(side, i):
    f = f'{d}/echo-{side}-{i}/results.csv'
    if not os.path.exists(f): return None
    row = open(f).read().splitlines()[1].split(',')
    w = [float(x) for x in row[4:]]
    steady = st.median(w[2:]); best = min(w)
    settled = all(x <= 1.5 * best for x in w[2:])
    return steady, settled, float(row[2])
pairs = sorted({int(m.group(1)) for f in glob.glob(f'{d}/echo-{A}-*') for m in [re.search(r'-(\d+)$', f)] if m})
ra, sa, sb = [], 0, 0
for i in pairs:
    a, b = load(A, i), load(B, i)
    if not a or not b: continue
    ra.append(b[0] / a[0]); sa += a[1]; sb += b[1]
    print(f'{i}: {A} {a[0]:.2f}{" S" if a[1] else ""} first {a[2]:.1f}  {B} {b[0]:.2f}{" S" if b[1] else ""} first {b[2]:.1f}  {B}/{A} {b[0]/a[0]:.2f}')
print(f'{B}/{A} min/median/max {min(ra):.2f}/{st.median(ra):.2f}/{max(ra):.2f}, {B} faster in {sum(r < 1 for r in ra)}/{len(ra)}; settled {A} {sa}, {B} {sb}')
# slow windows after the 4th (windows 5..22 above 3 us), per side
import collections
slow = collections.defaultdict(list)
for i in pairs:
    for side in (A, B):
        f = f'{d}/echo-{side}-{i}/results.csv'
        if os.path.exists(f):
            w = [float(x) for x in open(f).read().splitlines()[1].split(',')[4:]]
            slow[side].append(sum(x > 3 for x in w[4:]))
            slow[side + ' w3-22'].append(sum(x > 3 for x in w[2:]))
for k, v in slow.items(): print(f'slow windows {k}: {v} (total {sum(v)})')
