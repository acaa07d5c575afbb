// REQUIRES: ptxas
// RUN: tessel-opt %s -split-input-file --tessel-fuse --tessel-materialize --tessel-forward-fills --tessel-forward-accumulators --tessel-place-barriers --convert-linalg-to-loops --tessel-shared-bank-conflicts=remarks=1 -o /dev/null 2>&1 \
// RUN:   | grep "remark:" | sed -e 's/^[^:]*:\([0-9]*\):[0-9]*:/\1:/' | sort | uniq -c | FileCheck %s --check-prefix=ACCESSES
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// Issue 41, item 4: padded shared tiles (a config's `pad`). A 1024^3 f32
// matmul, blocks of 128 x 16 outputs, 64 x 4 threads of 2 x 4 accumulators,
// A's tile 128 x 32 (M-major, as A is in global memory), read along k as
// ld.shared.v4. A quarter warp (the 8 lanes of one 16-byte request phase)
// spans two thread rows whose A rows are 2 x 32 floats = 256 bytes apart:
// the same banks, so 16 of A's loads are 2-way conflicted. Padding A's rows
// by 4 floats (pitch 36, 288 bytes) moves the second row 8 banks on: every
// shared load has degree 1. The vector loads and the 16-byte cp.async
// copies stay (rows remain 16-byte aligned); shared memory grows by 2 x 128
// x 4 x 4 bytes (two stages), which is what the search space estimates
// (SearchSpaceTest, CompileTest).

// ACCESSES: 32 [[UNPADDED:[0-9]+]]: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 16 [[UNPADDED]]: remark: shared load of 16 bytes a lane: bank-conflict degree 2
// ACCESSES-NEXT: 4 [[UNPADDED]]: remark: shared store of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 48 [[PADDED:[0-9]+]]: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 4 [[PADDED]]: remark: shared store of 16 bytes a lane: bank-conflict degree 1

// BIN: tessel.kernel_facts = {unpadded_kernel = {{.*}}shared_load_conflicts = 2 : i64
// BIN: gpu.binary @unpadded_kernel
// BIN-SAME: ptx = {bar_sync = 1 : i64, bar_sync_in_loops = 1 : i64, cp_async = 10 : i64, fma_f32 = 256 : i64, fma_f32_in_loops = 256 : i64, ld_shared_128 = 48 : i64, ld_shared_in_loops = 48 : i64, st_global_128 = 2 : i64}
// BIN-SAME: shared_memory_bytes = 36864
// BIN-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
func.func @unpadded(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>, tessel.config = #tessel.config<tiles = [[8, 1, 64, 2, 1], [64, 1, 4, 1, 4], [32, 8, 4]], unroll = 16, vector = [4, 4], stages = 2>} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %mm : tensor<1024x1024xf32>
}

// -----

// BIN: tessel.kernel_facts = {padded_kernel = {{.*}}shared_load_conflicts = 1 : i64
// BIN: gpu.binary @padded_kernel
// BIN-SAME: ptx = {bar_sync = 1 : i64, bar_sync_in_loops = 1 : i64, cp_async = 10 : i64, fma_f32 = 256 : i64, fma_f32_in_loops = 256 : i64, ld_shared_128 = 48 : i64, ld_shared_in_loops = 48 : i64, st_global_128 = 2 : i64}
// BIN-SAME: shared_memory_bytes = 40960
// BIN-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
func.func @padded(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>, tessel.config = #tessel.config<tiles = [[8, 1, 64, 2, 1], [64, 1, 4, 1, 4], [32, 8, 4]], unroll = 16, vector = [4, 4], stages = 2, pad = [4, 0]>} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %mm : tensor<1024x1024xf32>
}
