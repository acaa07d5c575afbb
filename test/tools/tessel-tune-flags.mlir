// Search flags out of range are refused before anything is measured or a
// database is created.
// RUN: rm -f %t.db
// RUN: not tessel-tune %s --trials=0 --db=%t.db 2>&1 | FileCheck %s --check-prefix=TRIALS
// TRIALS: tessel-tune: trials=0 is out of range: at least 1
// RUN: not tessel-tune %s --measures-per-round=-1 --db=%t.db 2>&1 | FileCheck %s --check-prefix=ROUND
// ROUND: tessel-tune: measures-per-round=-1 is out of range: at least 1 (0: the strategy's default)
// RUN: not tessel-tune %s --strategy="evolutionary population=0" --db=%t.db 2>&1 | FileCheck %s --check-prefix=POP
// POP: tessel-tune: strategy 'evolutionary': population=0 is out of range: at least 1
// RUN: not tessel-tune %s --strategy="evolutionary generations=-1" --db=%t.db 2>&1 | FileCheck %s --check-prefix=GEN
// GEN: tessel-tune: strategy 'evolutionary': generations=-1 is out of range: at least 0
// RUN: not tessel-tune %s --time-limit=-2.5 --db=%t.db 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: tessel-tune: time-limit=-2.5 is out of range: at least 0 (0: no limit)
// RUN: not tessel-tune %s --strategy="evolutionary epsilon-greedy=1.5" --db=%t.db 2>&1 | FileCheck %s --check-prefix=EPS
// EPS: tessel-tune: strategy 'evolutionary': epsilon-greedy=1.5 is out of range: 0 to 1
// RUN: not tessel-tune %s --strategy="evolutionary tile-mutation-weight=-0.1" --db=%t.db 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: tessel-tune: strategy 'evolutionary': tile-mutation-weight=-0.1 is out of range: 0 to 1
// RUN: not tessel-tune %s --strategy="evolutionary diversity-filter=0.5" --db=%t.db 2>&1 | FileCheck %s --check-prefix=DIVERSITY
// DIVERSITY: tessel-tune: strategy 'evolutionary': diversity-filter=0.5 is out of range: 0 (off) or at least 1
// RUN: not tessel-tune %s --scheduler=fifo --db=%t.db 2>&1 | FileCheck %s --check-prefix=SCHED
// SCHED: tessel-tune: scheduler=fifo is not one of: gradient, gradient-share, round-robin
// RUN: test ! -e %t.db
//
// --help lists Tessel's options, not the LLVM backends' flags; the
// strategies' own options are listed by --list-strategies.
// RUN: tessel-tune --help | FileCheck %s --check-prefix=HELP
// HELP: tessel-tune options:
// HELP: --cost-model=<string>
// HELP: --list-strategies
// HELP: --rerun=<RUN>
// HELP: --strategy=<string>
// HELP-NOT: --amdgpu
// HELP-NOT: --polly
func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
