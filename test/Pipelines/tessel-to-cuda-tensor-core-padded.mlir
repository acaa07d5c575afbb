// REQUIRES: ptxas
// RUN: tessel-opt %s -split-input-file --tessel-fuse --tessel-materialize --tessel-forward-fills --tessel-forward-accumulators --tessel-place-barriers --convert-linalg-to-loops --tessel-shared-bank-conflicts=remarks=1 -o /dev/null 2>&1 \
// RUN:   | grep "remark:" | sed -e 's/^[^:]*:\([0-9]*\):[0-9]*:/\1:/' | sort | uniq -c | FileCheck %s --check-prefix=ACCESSES
// RUN: tessel-opt %s -split-input-file --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// Issue 43 item 1: ldmatrix without bank conflicts, by padded shared tiles.
// The pipelined f16 tensor-core matmul of tessel-to-cuda-tensor-core-
// pipelined.mlir: A's tile is 128 x 32 halves (64-byte rows), B's 32 x 128
// (256-byte rows). Each 8 x 8 matrix an ldmatrix reads is 8 rows of 16
// bytes, one request phase: A's rows 64 bytes apart fall 4 to a bank group
// (4-way), B's 256 bytes apart all in one (8-way, the transposed loads).
// Rows one 16-byte vector longer (pad = [8, 8]: pitches 80 and 272 bytes)
// put the 8 rows of every matrix in 8 different bank groups: every
// ldmatrix is conflict-free. The price: A's 16-byte cp.async stores, two
// rows to a request phase, become 2-way conflicted (a swizzled layout would
// avoid both), and 5 KiB more shared memory.

// (B's transposed ldmatrix come out of upstream's vector-to-GPU conversion
// without a location: the last two lines, unpadded 8-way, padded 1.)
// ACCESSES: 8 [[UNPADDED:[0-9]+]]: remark: shared load of 16 bytes a lane: bank-conflict degree 4
// ACCESSES-NEXT: 4 [[UNPADDED]]: remark: shared store of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 8 [[PADDED:[0-9]+]]: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 2 [[PADDED]]: remark: shared store of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 2 [[PADDED]]: remark: shared store of 16 bytes a lane: bank-conflict degree 2
// ACCESSES-NEXT: 16 <unknown>:0: remark: shared load of 16 bytes a lane: bank-conflict degree 1
// ACCESSES-NEXT: 16 <unknown>:0: remark: shared load of 16 bytes a lane: bank-conflict degree 8

// BIN: tessel.kernel_facts = {unpadded_kernel = {{.*}}shared_load_conflicts = 8 : i64, {{.*}}shared_store_conflicts = 1 : i64
// BIN: gpu.binary @unpadded_kernel
// BIN-SAME: ptx = {bar_sync = 2 : i64, bar_sync_in_loops = 1 : i64, cp_async = 16 : i64, {{.*}}mma = 64 : i64
// BIN-SAME: shared_memory_bytes = 32768
// BIN-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
func.func @unpadded(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 2>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// BIN: tessel.kernel_facts = {padded_kernel = {{.*}}shared_load_conflicts = 1 : i64, {{.*}}shared_store_conflicts = 2 : i64
// BIN: gpu.binary @padded_kernel
// BIN-SAME: ptx = {bar_sync = 2 : i64, bar_sync_in_loops = 1 : i64, cp_async = 16 : i64, {{.*}}mma = 64 : i64
// BIN-SAME: shared_memory_bytes = 37888
// BIN-SAME: spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
func.func @padded(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 2, pad = [8, 8]>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
