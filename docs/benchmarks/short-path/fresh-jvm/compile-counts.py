import re,sys,collections
for f in sys.argv[1:]:
    s=open(f,errors='replace').read()
    c=collections.Counter()
    for sec in re.split(r"<compilation_log ",s)[1:]:
        name=re.search(r"<start_compile_thread name='([^']*)'",sec)
        if not name: continue
        k='C2' if name.group(1).startswith('C2') else 'C1'
        for m in re.finditer(r"<task [^>]*?method='([^' ]*) [^>]*?>.*?<task_done [^>]*?nmsize='(\d+)'",sec,re.S):
            c[k]+=1; c[k+'sz']+=int(m.group(2))
            if m.group(1).startswith(('jdk.jfr','jdk.internal.org')): c['jfr/asm']+=1
    print(f"{f.split('/')[-2]}: C1 {c['C1']} ({c['C1sz']//1024} KiB), C2 {c['C2']} ({c['C2sz']//1024} KiB), jdk.jfr+asm {c['jfr/asm']}")
