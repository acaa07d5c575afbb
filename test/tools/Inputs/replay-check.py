"""Checks a tuning run on --measure=replay:FILE against FILE.

    replay-check.py DB FILE

Every measurement of the run must be a schedule FILE measured, with FILE's
status and, for `ok` rows, the median of FILE's medians of that schedule.
Prints what it saw.
"""
import json
import sqlite3
import statistics
import sys

db, path = sys.argv[1:3]
rows = [json.loads(line) for line in open(path) if line.strip()]
merged = {}
for r in rows:
    key = (r["sketch"], r["config"])
    entry = merged.setdefault(key, {"status": r["status"], "medians": []})
    if r["status"] == "ok":
        entry["status"] = "ok"
        entry["medians"].append(r["median_us"])

con = sqlite3.connect(db)
measured = con.execute(
    "select s.sketch, c.config, m.status, m.median_us, m.trial, m.target, "
    "m.simulated, m.message from measurements m join configs c on "
    "m.config_id = c.id join sketches s on c.sketch_id = s.id order by m.id"
).fetchall()
counted = [m for m in measured if m[4] > 0]
errors = []
for sketch, config, status, median, trial, target, simulated, message in measured:
    entry = merged.get((sketch, config))
    if entry is None:
        if trial > 0:
            errors.append(f"trial {trial}: {config} is not in the file")
        continue
    if status != entry["status"]:
        errors.append(f"trial {trial}: status {status}, the file says {entry['status']}")
    elif status == "ok":
        want = statistics.median(entry["medians"])
        if abs(median - want) > 1e-9 * want:
            errors.append(f"trial {trial}: {median} us, the file says {want}")
    if simulated:
        errors.append(f"trial {trial}: marked simulated")
for e in errors:
    print("error:", e)
configs = {(m[0], m[1]) for m in counted}
targets = sorted({m[5] for m in measured})
print(f"{len(counted)} counted trials, {len(configs)} distinct, "
      f"{len(errors)} errors, on {', '.join(targets)}")
print("statuses:", ", ".join(f"{s} {n}" for s, n in sorted(
    {s: sum(1 for m in counted if m[2] == s) for s in {m[2] for m in counted}}.items())))
sys.exit(1 if errors else 0)
