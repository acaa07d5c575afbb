"""Writes a small calibration-candidates JSONL for ridge-baseline.test:
groups h100-up-a and h100-up-b (8 kernels each) take longer with more
barriers; h200-down (40 kernels) takes *less* time with more barriers. Only
the barrier counts vary. A second argument prefixes the group names."""
import json
import sys


def line(group, index, barriers, measured):
    facts = ("{bank_conflicts = 1 : i64, barriers = %d : i64, coalesced = "
             "true, element_bytes = 4 : i64, flops = 1.000000e+09 : f64, "
             "global_read = 1048576 : i64, global_requested = 1048576 : i64, "
             "global_written = 1048576 : i64, load_barriers = 0 : i64, "
             "load_lane_use = 1.000000e+00 : f64, op = \"matmul\", "
             "register_tile = 16 : i64, shared_moved = 1048576 : i64, "
             "unroll = 16 : i64, vector_width = 4 : i64}" % barriers)
    return {"block_threads": 256, "facts": facts, "grid_blocks": 264,
            "group": group, "key": f"{group}/{index}/0", "launch": 0,
            "launches": 1, "measured_us": measured,
            "name": f"{group}/{index}", "plan_flops": 0,
            "resources": {"kernel": "k0", "registers": 64,
                          "shared_memory_bytes": 8192,
                          "spill_load_bytes": 0, "spill_store_bytes": 0,
                          "stack_bytes": 0},
            "workload": group}


prefix = sys.argv[2] if len(sys.argv) > 2 else ""
rows = []
for group in (prefix + "h100-up-a", prefix + "h100-up-b"):
    for i in range(8):
        rows.append(line(group, i, 2 ** i, 10.0 * (1 + 2 ** i) ** 0.5))
for i in range(40):
    rows.append(line(prefix + "h200-down", i, 10 * (i + 1), 500.0 / (i + 1)))
with open(sys.argv[1], "w") as f:
    for row in rows:
        f.write(json.dumps(row) + "\n")
