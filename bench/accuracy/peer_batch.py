#!/usr/bin/python3
"""Run the shared DP peer script (unchanged) for many (table, ε, seed) jobs in one process, so
torch and the peer's imports load once: each job is runpy of the peer with its own argv.

usage: peer_batch.py PEER DATA_DIR OUT.csv < jobs   (one job per line: "table eps seed prep
[variant]")
Appends "table,VARIANT,eps,seed,accuracy,,,seconds" rows to OUT.csv (the accuracy CSV format;
VARIANT defaults to opacus).
"""
import contextlib, fcntl, io, json, runpy, sys, time

peer, data, out = sys.argv[1:4]
for line in sys.stdin:
    if not line.strip():
        continue
    ds, eps, seed, prep, *rest = line.split()
    variant = rest[0] if rest else 'opacus'
    argv = [peer, f'{data}/{ds}_train.csv', f'{data}/{ds}_test.csv', '--label', 'label',
            '--epsilon', eps, '--delta', '1e-5', '--seed', seed, '--prep', prep, '--json']
    buf, start = io.StringIO(), time.perf_counter()
    try:
        sys.argv = argv
        with contextlib.redirect_stdout(buf):
            runpy.run_path(peer, run_name='__main__')
        acc = json.loads(buf.getvalue().strip().splitlines()[-1])['accuracy']
    except BaseException as e:  # SystemExit included: report and go on
        print(f'FAILED: peer {ds} {eps} {seed}: {e!r}', file=sys.stderr)
        continue
    with open(out, 'a') as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(f'{ds},{variant},{eps},{seed},{acc},,,{time.perf_counter() - start:.3f}\n')
