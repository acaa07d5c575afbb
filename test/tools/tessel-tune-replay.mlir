// tessel-tune --measure=replay:FILE (docs/Replay.md): times a GPU measured,
// replayed. Each task's search space is exactly the schedules FILE measured
// of it, and every answer is FILE's measurement: nothing is simulated.

// One group of the measured dataset: the 1024^3 f32 matmul on the H100 of
// 2026-11-27 (kernels of e4b0ce6), 556 schedules.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %tessel_src_root/scripts/replay-dataset --device H100 --codegen e4b0ce6 --task 'matmul 1024x1024 * 1024x1024 f32' -o %t/matmul.jsonl 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: replay-dataset: 558 rows, 556 schedules measured ok

// Every strategy proposes only measured schedules and gets their times.
// RUN: tessel-tune %s --measure=replay:%t/matmul.jsonl --strategy=random --trials=40 --seed=3 --db=%t/random.db 2>&1 | FileCheck %s
// CHECK: measuring on replay:h100-sxm@e4b0ce6
// CHECK-NOT: SIMULATED
// CHECK: replaying 556 schedules measured on NVIDIA H100 80GB HBM3 (2026-11-27, kernels of e4b0ce6)
// CHECK: task matmul 1024x1024 * 1024x1024 f32: 556 measured schedules
// CHECK: 40 trials in {{.*}} on replay:h100-sxm@e4b0ce6; {{.*}} (replayed, none compiled)
// RUN: python3 %S/Inputs/replay-check.py %t/random.db %t/matmul.jsonl | FileCheck %s --check-prefix=RANDOM
// RANDOM: 40 counted trials, 40 distinct, 0 errors, on replay:h100-sxm@e4b0ce6
// RANDOM-NEXT: statuses: ok 40
// RUN: tessel-tune %s --measure=replay:%t/matmul.jsonl --strategy=evolutionary --trials=96 --measures-per-round=16 --seed=3 --db=%t/evolutionary.db --quiet
// RUN: python3 %S/Inputs/replay-check.py %t/evolutionary.db %t/matmul.jsonl | FileCheck %s --check-prefix=EVOLUTIONARY
// EVOLUTIONARY: 96 counted trials, 96 distinct, 0 errors
// RUN: tessel-tune %s --measure=replay:%t/matmul.jsonl --strategy=dgd --trials=48 --seed=3 --db=%t/dgd.db --quiet
// RUN: python3 %S/Inputs/replay-check.py %t/dgd.db %t/matmul.jsonl | FileCheck %s --check-prefix=DGD
// DGD: 48 counted trials, 48 distinct, 0 errors
// RUN: tessel-tune %s --measure=replay:%t/matmul.jsonl --strategy=psa --trials=48 --seed=3 --db=%t/psa.db --quiet
// RUN: python3 %S/Inputs/replay-check.py %t/psa.db %t/matmul.jsonl | FileCheck %s --check-prefix=PSA
// PSA: 48 counted trials, 48 distinct, 0 errors

// The benchmark script over one group: the table has the exact
// expectation of uniform draws and each strategy's curve, labelled with the
// data's device, date and compiler.
// RUN: python3 %tessel_src_root/scripts/replay-bench --out %t/bench --trials 16 --seeds 1 -j 1 --strategies random,evolutionary --groups h100-bert-ffn1@e4b0ce6 --tessel-tune %tessel_obj_root/bin/tessel-tune | FileCheck %s --check-prefix=BENCH
// BENCH: MEASURED, replayed (docs/Replay.md): not simulated.
// BENCH: ## h100-bert-ffn1@e4b0ce6
// BENCH: 257 schedules measured on NVIDIA H100 80GB HBM3 (driver 580.159.04, {{.*}}; 2026-11-27; kernels of e4b0ce6); optimum 29.70 us
// BENCH: | strategy | n=8 | n=16 | reach 1.10x | reach 1.05x | outside | s/run |
// BENCH: | uniform | 1.096 | 1.066 |
// BENCH-NEXT: | random | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9>]+}} | {{[0-9>]+}} | 0 |
// BENCH-NEXT: | evolutionary | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9>]+}} | {{[0-9>]+}} | 0 |
// BENCH-NOT: Failed runs

// A small file: three schedules, one of which faulted. The run measures
// the three and stops: the space has no other schedule.
// RUN: head -n 3 %t/matmul.jsonl | python3 -c "import json,sys; rows=[json.loads(l) for l in sys.stdin]; rows[1].update(status='launch_error', message='an illegal memory access'); rows[1].pop('median_us'); [print(json.dumps(r)) for r in rows]" > %t/three.jsonl
// RUN: tessel-tune %s --measure=replay:%t/three.jsonl --strategy=evolutionary --trials=20 --seed=1 --db=%t/three.db --quiet
// RUN: python3 %S/Inputs/replay-check.py %t/three.db %t/three.jsonl | FileCheck %s --check-prefix=THREE
// THREE: 3 counted trials, 3 distinct, 0 errors
// THREE-NEXT: statuses: launch_error 1, ok 2

// Rows of two devices (or code generations) are not one replay.
// RUN: python3 -c "import json,sys; r=json.loads(open(sys.argv[1]).readline()); print(json.dumps(r)); r['device']='NVIDIA H200'; print(json.dumps(r))" %t/matmul.jsonl > %t/mixed.jsonl
// RUN: not tessel-tune %s --measure=replay:%t/mixed.jsonl --trials=4 --db=%t/mixed.db 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: tessel-tune: {{.*}}mixed.jsonl:2: the rows mix device 'NVIDIA H100 80GB HBM3' and 'NVIDIA H200': replay one group of the measured dataset (scripts/replay-dataset selects one)
// RUN: not tessel-tune %s --measure=replay:%t/missing.jsonl --trials=4 --db=%t/missing.db 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tessel-tune: cannot read the replay dataset '{{.*}}missing.jsonl': No such file or directory
// RUN: not tessel-tune %s --measure=replay: --trials=4 --db=%t/empty.db 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tessel-tune: measure=replay: needs the file of measurements to replay
// RUN: echo 'not json' > %t/bad.jsonl
// RUN: not tessel-tune %s --measure=replay:%t/bad.jsonl --trials=4 --db=%t/bad.db 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: tessel-tune: {{.*}}bad.jsonl:1: not a JSON object:

func.func @forward(%arg0: tensor<1024x1024xf32>, %arg1: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1024x1024xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %2 : tensor<1024x1024xf32>
}
