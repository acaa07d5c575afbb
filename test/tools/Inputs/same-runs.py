"""Compares the runs of two tessel-tune --export files, run by run (matched
by strategy and seed): each run's measurements, in trial order, must be the
same configs with the same status and median time. Prints one line per run
and the measurement counts; exits 1 on a difference or a duplicate."""
import collections
import json
import sys


def runs(path):
    by_run = collections.defaultdict(list)
    seen = set()
    duplicates = 0
    for line in open(path):
        row = json.loads(line)
        run = row["run"]
        key = (run["strategy"], run["seed"])
        item = (row["trial"], row["sketch"], row["config"], row["status"],
                row["median_us"])
        unique = (key, run["started_at"], row["task"]["workload_key"],
                  row["sketch"], row["config"], row["target"])
        duplicates += unique in seen
        seen.add(unique)
        by_run[key].append(item)
    return by_run, duplicates


shared, shared_duplicates = runs(sys.argv[1])
alone = {}
for path in sys.argv[2:]:
    alone.update(runs(path)[0])
ok = shared_duplicates == 0
print("shared: %d runs, %d measurements, %d duplicates"
      % (len(shared), sum(map(len, shared.values())), shared_duplicates))
for key in sorted(shared):
    same = sorted(shared[key]) == sorted(alone.get(key, []))
    ok &= same
    print("%s seed %d: %d measurements, %s" % (key[0], key[1], len(shared[key]),
          "the same as alone" if same else "DIFFERENT from alone"))
sys.exit(0 if ok else 1)
