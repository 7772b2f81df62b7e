import sys, re
s = open(sys.argv[1], errors='replace').read()
secs = re.split(r"<compilation_log ", s)[1:]
rows = []
for sec in secs:
    name = re.search(r"<start_compile_thread name='([^']*)'", sec)
    if not name or not name.group(1).startswith('C2'): continue
    for m in re.finditer(r"<task [^>]*?method='([^']*)'([^>]*?)stamp='([\d.]+)'(.*?)<task_done [^>]*?nmsize='(\d+)'[^>]*?stamp='([\d.]+)'", sec, re.S):
        rows.append((float(m.group(3)), float(m.group(6)) - float(m.group(3)), int(m.group(5)), m.group(1).split(' ')[0].split('/')[-1] + '.' + m.group(1).split(' ')[1]))
lo = float(sys.argv[2]) if len(sys.argv) > 2 else 0
tot = sum(r[1] for r in rows if r[0] >= lo)
print(f'C2 tasks from {lo}s: {sum(1 for r in rows if r[0]>=lo)}, {tot:.2f} s wall in compiles')
for r in sorted([r for r in rows if r[0] >= lo], key=lambda r: -r[1])[:int(sys.argv[3]) if len(sys.argv) > 3 else 15]:
    print(f'  at {r[0]:6.2f} took {r[1]:5.2f} s {r[2]//1024:4d} KiB {r[3]}')
