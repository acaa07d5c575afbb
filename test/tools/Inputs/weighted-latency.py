"""Reads tessel-tune --report files: prints each one's trials per task (in
model order) and says which has the lowest weighted latency (sum of weight
x best latency over the tasks)."""
import json
import os
import sys

totals = {}
for path in sys.argv[1:]:
    report = json.load(open(path))
    name = os.path.basename(path)
    tasks = report["tasks"]
    totals[name] = sum(t["weight"] * t["best_latency_us"] for t in tasks)
    print("%s: trials per task %s" % (name, " ".join(str(t["trials"]) for t in tasks)))
print("weighted latency: %s is lower" % min(totals, key=totals.get))
