"""Joins the records of an analytic and a compiled tessel-tune run of the
same candidates (--export files) and checks the search space against the
compiler: every candidate the analytic run accepted compiles, and the shared
memory ptxas reports is at most the space's estimate. Prints the counts and
the register estimate's agreement; exits 1 on a violation."""
import collections
import json
import statistics
import sys


def load(path):
    return {(r["task"]["workload_key"], r["sketch"], r["config"]): r
            for r in map(json.loads, open(path))}


analytic, compiled = load(sys.argv[1]), load(sys.argv[2])
common = set(analytic) & set(compiled)
print(f"candidates: {len(common)} in both runs "
      f"({len(analytic)} analytic, {len(compiled)} compiled)")
pairs = collections.Counter()
violations = []
shared = collections.Counter()
registers = []
for key in sorted(common):
    a, c = analytic[key], compiled[key]
    pairs[f"{a['status']} -> {c['status']}"] += 1
    if a["status"] != "ok":
        continue
    if c["status"] != "ok":
        violations.append(f"accepted but {c['status']}: {c['message'][:160]}")
        continue
    if c["shared_bytes"] > a["shared_bytes"]:
        violations.append(f"shared memory {c['shared_bytes']} above the "
                          f"estimate {a['shared_bytes']}: {key[2]}")
    shared["equal" if c["shared_bytes"] == a["shared_bytes"] else
           "below"] += 1
    registers.append((a["registers"], c["registers"]))
for pair, n in sorted(pairs.items()):
    print(f"  {pair}: {n}")
print(f"shared memory (ptxas vs estimate): {shared['equal']} equal, "
      f"{shared['below']} below, "
      f"{sum(1 for v in violations if v.startswith('shared'))} above")
if registers:
    ratios = [p / e for e, p in registers if e > 0]
    print(f"registers (ptxas / estimate): median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}, estimate below ptxas for "
          f"{sum(1 for e, p in registers if p > e)} of {len(registers)}")
for v in violations:
    print("VIOLATION", v)
sys.exit(1 if violations else 0)
