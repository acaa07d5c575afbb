// RUN: tessel-opt %s --tessel-materialize=stop-before-gpu-mapping=1 | FileCheck %s --check-prefix=LOOP
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// Pipelined tensor-core staging (issue 43 item 1): the 256x256x256 matmul
// of tessel-to-cuda-tensor-core.mlir (blocks of 128x128, 2x2 warps of 64x64,
// a staging loop of 8 steps of K = 32), its A and B tiles double-buffered
// (f16) and triple-buffered (bf16): the loads of step i + stages - 1 are
// 16-byte cp.async issued before the mma.sync of step i.

// Before GPU mapping: the prologue's groups, then each step waits for its
// own group, one barrier, the loads ahead (skipped past the end), commit,
// the math on the step's slot.
// LOOP-LABEL: func.func @stages2
// LOOP: memref.alloca() : memref<16384xi8, #gpu.address_space<workgroup>>
// LOOP: nvvm.cp.async.commit.group {tessel.pipeline_sync}
// LOOP: scf.for
// LOOP: nvvm.cp.async.wait.group 0 {tessel.pipeline_sync}
// LOOP-NEXT: gpu.barrier {tessel.pipeline_sync}
// LOOP: scf.if
// LOOP: nvvm.cp.async.commit.group {tessel.pipeline_sync}
// LOOP: vector.contract
// LOOP-LABEL: func.func @stages3_bf16
// LOOP: memref.alloca() : memref<24576xi8, #gpu.address_space<workgroup>>
// LOOP: nvvm.cp.async.wait.group 1 {tessel.pipeline_sync}

// Every global load is a cp.async of 16 bytes (no synchronous ld.global, no
// st.shared); A by ldmatrix x4, B by transposing ldmatrix x2, mma.sync;
// the step waits (the loop's header, which ptxas's layout puts after the
// body) for its own group, with one more still in flight when there are 3
// stages, then one barrier.
// ISA-LABEL: gpu.binary @stages2_kernel
// ISA-NOT: ld.global
// ISA-NOT: st.shared
// ISA-SAME: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// ISA-SAME: cp.async.commit_group;
// ISA-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// ISA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// ISA-SAME: cp.async.wait_group \090;\0A\09bar.sync \090;
// ISA-LABEL: gpu.binary @stages3_bf16_kernel
// ISA-NOT: ld.global
// ISA-NOT: st.shared
// ISA-SAME: cp.async.cg.shared.global
// ISA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// ISA-SAME: cp.async.wait_group \091;\0A\09bar.sync \090;

// ptxas takes both; the tiles' slots are their shared memory (2 x 16 KiB
// and 3 x 16 KiB).
// BIN: gpu.binary @stages2_kernel
// BIN-SAME: shared_memory_bytes = 32768 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64
// BIN: gpu.binary @stages3_bf16_kernel
// BIN-SAME: shared_memory_bytes = 49152 : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64

func.func @stages2(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 2>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

func.func @stages3_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8], stages = 3>}
    ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
