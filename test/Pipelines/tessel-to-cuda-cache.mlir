// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{compile} = tessel-opt --tessel-to-cuda="chip=sm_90 format=bin cache-dir=%t/cache cache-report=1 resources-file=%t/resources.json"
// DEFINE: %{untimed} = sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //'

// Cold, into an empty cache: both kernels translated and assembled, the
// module stored (with the warning its compile said).
// RUN: %{compile} %s -o %t/cold.mlir 2> %t/cold.err
// RUN: FileCheck %s --check-prefix=COLD < %t/cold.err
// RUN: cp %t/resources.json %t/cold.json
// COLD: warning: runtime check on data dropped (kernels do not check it): 'out of range'
// COLD: remark: compile cache: 0 of 2 kernel modules' PTX from the cache, 0 corrupt entries rebuilt
// COLD: remark: compile cache: 0 of 2 cubins from the cache, 0 corrupt entries rebuilt
// COLD: remark: compile cache: module compiled and stored

// Warm: the same module, byte for byte, the same warning and resources
// table, and no kernel compiled.
// RUN: rm %t/resources.json
// RUN: %{compile} %s -o %t/warm.mlir 2> %t/warm.err
// RUN: FileCheck %s --check-prefix=WARM --implicit-check-not="kernel modules" < %t/warm.err
// RUN: cmp %t/cold.mlir %t/warm.mlir
// RUN: cmp %t/cold.json %t/resources.json
// WARM: warning: runtime check on data dropped (kernels do not check it): 'out of range'
// WARM: remark: compile cache: compiled module from {{.*}}cache

// Serial, parallel and cached builds give the same binaries (but for
// upstream's translation timing).
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin cache-dir=off" 2> /dev/null | %{untimed} > %t/parallel
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin cache-dir=off" --mlir-disable-threading 2> /dev/null | %{untimed} > %t/serial
// RUN: %{untimed} %t/warm.mlir > %t/cached
// RUN: cmp %t/parallel %t/serial
// RUN: cmp %t/parallel %t/cached

// Another target or another option is another module: compiled again.
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=bin cache-dir=%t/cache cache-report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin cache-dir=%t/cache cache-report=1 fp-contract=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// MISS: remark: compile cache: 0 of 2 kernel modules' PTX from the cache
// MISS: remark: compile cache: module compiled and stored
// Kernels are looked up by content: those the option leaves alone (here
// the PTX of both: LLVM contracted them already) are reused.
// OPTION: remark: compile cache: module compiled and stored

// A changed kernel: the model and that kernel are compiled again, the
// other kernel comes from the cache.
// RUN: sed 's/arith.maximumf/arith.minimumf/' %s > %t/changed.mlir
// RUN: %{compile} %t/changed.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGED
// CHANGED: remark: compile cache: 1 of 2 kernel modules' PTX from the cache, 0 corrupt entries rebuilt
// CHANGED: remark: compile cache: 1 of 2 cubins from the cache, 0 corrupt entries rebuilt
// CHANGED: remark: compile cache: module compiled and stored

// The environment names the cache when the option does not.
// RUN: env TESSEL_CACHE_DIR=%t/env tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" -o /dev/null 2> /dev/null
// RUN: ls %t/env | grep -c '^llvmcache-[0-9a-f]' | FileCheck %s --check-prefix=ENV
// ENV: 3

// A byte flipped in the payload of every entry: each is detected, removed
// and rebuilt, never used (a used cubin would differ from the cold one).
// RUN: /usr/bin/python3 %S/Inputs/flip-cache-byte.py %t/cache
// RUN: %{compile} %s -o %t/rebuilt.mlir 2> %t/rebuilt.err
// RUN: FileCheck %s --check-prefix=CORRUPT < %t/rebuilt.err
// RUN: %{untimed} %t/rebuilt.mlir | cmp - %t/cached
// CORRUPT: remark: compile cache: 0 of 2 kernel modules' PTX from the cache, 2 corrupt entries rebuilt
// CORRUPT: remark: compile cache: 0 of 2 cubins from the cache, 2 corrupt entries rebuilt
// CORRUPT: remark: compile cache: module compiled (its corrupt entry removed) and stored
// And the rebuilt entries serve the next compile.
// RUN: %{compile} %s -o %t/again.mlir 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: cmp %t/rebuilt.mlir %t/again.mlir

// Two kernel modules (the activation fuses into the first matmul); the
// index check the frontend left on the host is dropped with a warning.
func.func @forward(%x: tensor<64x128xf32>, %w1: tensor<128x64xf32>, %w2: tensor<64x32xf32>, %i: index) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c64 = arith.constant 64 : index
  %ok = arith.cmpi ult, %i, %c64 : index
  cf.assert %ok, "out of range"
  %e1 = tensor.empty() : tensor<64x64xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x64xf32>) outs(%c1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h1 : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x32xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %h2 = linalg.matmul ins(%r, %w2 : tensor<64x64xf32>, tensor<64x32xf32>) outs(%c3 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e4 = tensor.empty() : tensor<32x64xf32>
  %t = linalg.transpose ins(%h2 : tensor<64x32xf32>) outs(%e4 : tensor<32x64xf32>) permutation = [1, 0]
  return %t : tensor<32x64xf32>
}

// Weights (a dense resource) come back as the input's, not as a renamed
// copy of them.
func.func @bias() -> tensor<4xf32> {
  %b = arith.constant dense_resource<bias_weights> : tensor<4xf32>
  return %b : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      bias_weights: "0x040000000000803F0000004000004040000080C0"
    }
  }
#-}
