import csv,statistics as st,sys
# usage: ratios.py DIR A B  -> per-run A/B ratios of ops/s and READ p99
d,a,b=sys.argv[1:4]
rows=[r for r in csv.DictReader(open(d+'/results.csv')) if r['operation']=='READ']
by={(r['transport'],r['run']):r for r in rows}
runs=sorted({r['run'] for r in rows},key=int)
for m,k in [('ops/s','throughput_ops_s'),('READ p99','p99_us')]:
    rs=[float(by[(a,x)][k])/float(by[(b,x)][k]) for x in runs]
    better=sum(1 for v in rs if (v>=1 if k!='p99_us' else v<=1))
    print(f"{d.split('/')[-1]} {a}/{b} {m}: {min(rs):.2f} / {st.median(rs):.2f} / {max(rs):.2f} ({', '.join(f'{v:.2f}' for v in rs)}) {better} of {len(rs)}")
