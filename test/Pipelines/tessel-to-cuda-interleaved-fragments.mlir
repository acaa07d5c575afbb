// REQUIRES: ptxas
// RUN: tessel-opt %s -split-input-file --tessel-fuse --tessel-materialize --tessel-forward-fills --tessel-forward-accumulators --tessel-place-barriers --convert-linalg-to-loops --tessel-shared-bank-conflicts=remarks=1 -o /dev/null 2>&1 \
// RUN:   | grep "remark:" | sort | uniq -c | FileCheck %s --check-prefix=ACCESSES
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// Issue 41, item 4: a 128 x 128 block tile of an f32 matmul, 256 threads of
// 8 x 8 accumulators each. CUTLASS's SGEMM interleaves each thread's 8 x 8
// as 2 x 2 fragments of 4 x 4 spread across the warp; in Tessel that is two
// virtual threads per space loop (`tiles = [[8, 2, 16, 1, 4], ...]`): each
// fragment of B is one ld.shared.v4 whose quarter-warp reads 128
// consecutive bytes (conflict-free), A's rows are read along k as v4 by lanes
// sharing a row (a broadcast). Since barriers go where the dependences are
// (docs/Barriers.md) and virtual threads unroll inside the thread's code,
// no barrier separates them: one barrier per double-buffered staging step.
// The main loop: 512 FMAs for 32 ld.shared.v4 (16 FMA per shared load), all
// of degree 1. With the 8 x 8 tile contiguous per thread (second case) the
// B reads of a quarter warp span 256 bytes: 16 of the 32 loads are 2-way
// conflicted. The counts of combined accesses equal the PTX's
// (ld_shared_128 = 32, cp_async = 4).

// ACCESSES: 32 {{.*}}:[[LINE:[0-9]+]]:{{[0-9]+}}: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 4 {{.*}}:[[LINE]]:{{[0-9]+}}: remark: shared store of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 16 {{.*}}: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 16 {{.*}}: remark: shared load of 16 bytes a lane: bank-conflict degree 2
// ACCESSES-NEXT: 4 {{.*}}: remark: shared store of 16 bytes a lane: bank-conflict degree 1

// BIN: tessel.kernel_facts = {interleaved_kernel = {{.*}}shared_load_conflicts = 1 : i64, {{.*}}shared_store_conflicts = 1 : i64
// BIN: gpu.binary @interleaved_kernel
// BIN-SAME: ptx = {bar_sync = 1 : i64, bar_sync_in_loops = 1 : i64, cp_async = 4 : i64, fma_f32 = 512 : i64, fma_f32_in_loops = 512 : i64, ld_shared_128 = 32 : i64, ld_shared_in_loops = 32 : i64, st_global_128 = 16 : i64}
// BIN-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
func.func @interleaved(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>, tessel.config = #tessel.config<tiles = [[8, 2, 16, 1, 4], [8, 2, 16, 1, 4], [128, 8, 1]], unroll = 16, vector = [4, 4], stages = 2>} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %mm : tensor<1024x1024xf32>
}

// -----

// BIN: tessel.kernel_facts = {contiguous_kernel = {{.*}}shared_load_conflicts = 2 : i64, {{.*}}shared_store_conflicts = 1 : i64
// BIN: gpu.binary @contiguous_kernel
func.func @contiguous(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>, tessel.config = #tessel.config<tiles = [[8, 1, 16, 2, 4], [8, 1, 16, 2, 4], [128, 8, 1]], unroll = 16, vector = [4, 4], stages = 2>} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %mm : tensor<1024x1024xf32>
}
