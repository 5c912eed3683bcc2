#!/usr/bin/env python3
"""Differential check of the minimap2 front end's option parsing against minimap2 2.24.

    scripts/minimap2-cli-diff.py [SEED] [RUNS] [AGATHA]

Builds RUNS (300) random minimap2 command lines from a vocabulary of options, odd
values (`15x`, `4294967311`, `1.5K`, empty, ...), flags, presets and misplaced words,
each ending in -h (so that a command line that parses prints the usage text, which
shows the values it set), runs `minimap2 ARGS` and `AGATHA minimap2 ARGS`
(build/agatha), and prints the command lines whose exit code, stdout or stderr (colour
codes and [M::] lines aside) differ, then the count. Deterministic for a SEED (1).
Needs minimap2 2.24 on PATH; not part of the test suites (tests/cli and tests/e2e hold
the cases it found).
"""
import random
import subprocess
import sys
rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
AGATHA = sys.argv[3] if len(sys.argv) > 3 else 'build/agatha'
vals = ['15', '15x', '0', '-3', '2k', '1.5K', '5.5', 'abc', '', '4294967311', '1e3', '0x10', ' 7', '30,40', '4,24', '1M', '3g', '0.3', '+8', '100,5', '1,2x']
opts = ['-k','-w','-f','-g','-r','-n','-m','-p','-N','-A','-B','-O','-E','-z','-s','-t','-K','-I','-e','-U','-M','-F','-G','-T','-C','-v',
        '--seed','--max-chain-skip','--min-dp-len','--end-bonus','--min-occ-floor','--score-N','--max-qlen','--mask-len','--q-occ-frac','--chain-gap-scale','--cap-sw-mem','--bucket-bits','--mb-size','--min-count','--min-chain-score','--min-dp-score','--max-intron-len','--mask-level']
flags = ['-a','-c','-H','-X','-P','-D','-Q','-Y','-L','-y','-2','-S','--cs','--cs=long','--cs=none','--cs=x','--MD','--eqx','--splice','--sr','--no-long-join','--for-only','--rev-only','--hard-mask-level','--secondary=no','--secondary=yes','--sec=n','--dual=no','--frag=yes','--frag=no','--rmq=yes','--rmq=no','--heap-sort=yes','-x','-xsr','-x map-pb','-x asm5','-x splice','-x ava-ont','-x map-hifi','-ufb','-un','-uz','--se=no','-Z','--','-k','--lj-min-ratio=3','--qstrand','-V']
def gen():
    words = []
    for _ in range(rnd.randint(1, 6)):
        if rnd.random() < 0.6:
            o = rnd.choice(opts); v = rnd.choice(vals)
            if o.startswith('--') and rnd.random() < 0.5: words.append(o + '=' + v)
            elif not o.startswith('--') and rnd.random() < 0.5 and v and not v.startswith(' '): words.append(o + v)
            else: words += [o, v]
        else:
            words += rnd.choice(flags).split(' ')
    words.append('-h')
    if rnd.random() < 0.3: rnd.shuffle(words)
    return words
def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    err = '\n'.join(l for l in p.stderr.replace('\x1b[1;31m','').replace('\x1b[0m','').split('\n') if not l.startswith('[M::'))
    err = err.replace('[ERROR] ', '[ERROR]').replace('[ERROR]', '[ERROR] ').replace('[WARNING] ', '[WARNING]').replace('[WARNING]', '[WARNING] ')
    return p.returncode, p.stdout, err.strip()
n = bad = 0
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 300):
    w = gen()
    a = run(['minimap2'] + w); b = run([AGATHA, 'minimap2'] + w)
    n += 1
    if a != b:
        bad += 1
        if bad <= 8:
            print('ARGS:', w); print(' mm2:', a[0], repr(a[2][:300]), a[1][:0]); print(' agt:', b[0], repr(b[2][:300]))
            if a[1] != b[1]:
                import difflib; print(''.join(list(difflib.unified_diff(a[1].splitlines(1), b[1].splitlines(1)))[:12]))
print(n, 'runs', bad, 'differ')
