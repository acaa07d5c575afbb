// RUN: tessel-opt %s --tessel-materialize=stop-before-gpu-mapping=1 | FileCheck %s --check-prefix=LOOP
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_70 format=isa" | FileCheck %s --check-prefix=SM70

// A 1024^3 matmul whose staging loop (128 steps of K = 8) is pipelined over
// 3 stages: each shared tile (A: 64x8, B: 8x64, 2 KiB each) gets 3 slots,
// the loads of step i + 2 are issued before the math of step i.

// Before GPU mapping: two prologue steps of loads, then a loop over all 128
// steps: wait until step i's group is done (1 group, step i + 1's, may be
// pending), barrier (step i's tiles are visible, and every thread is done
// with step i - 1's math, whose slot step i + 2 refills), the loads of step
// i + 2 (skipped, by a uniform `scf.if`, past the end), commit (an empty
// group past the end, so every step waits for the same count), math of step
// i. The math appears once: no peeled epilogue.
// LOOP: #[[SLOT:map[0-9]*]] = affine_map<(d0) -> ((d0 floordiv 8) mod 3)>
// LOOP: memref.alloca() : memref<6144xi8, #gpu.address_space<workgroup>>
// LOOP: memref.alloca() : memref<6144xi8, #gpu.address_space<workgroup>>
// LOOP: nvvm.cp.async.commit.group {tessel.pipeline_sync}
// LOOP: nvvm.cp.async.commit.group {tessel.pipeline_sync}
// LOOP: scf.for %{{.*}} = %c0 to %c1024 step %c8 {
// LOOP: nvvm.cp.async.wait.group 1 {tessel.pipeline_sync}
// LOOP-NEXT: gpu.barrier {tessel.pipeline_sync}
// LOOP: affine.apply #[[SLOT]](%{{.*}})
// LOOP: scf.if
// LOOP: scf.if
// LOOP: nvvm.cp.async.commit.group {tessel.pipeline_sync}
// LOOP-NOT: gpu.barrier
// LOOP: vector.contract
// LOOP-NOT: vector.contract
// LOOP: return

// 16-byte loads bypass L1 (cp.async.cg); one group per step. One barrier
// in the whole kernel: the step's, after its wait (the copy rounds and the
// math need no barriers of their own: tessel-place-barriers leaves the
// buffers the copies fill to the pipeline; before, 3 more per step and 4 in
// the prologue).
// ISA: gpu.binary @pipelined_kernel
// ISA-SAME: .shared .align {{[0-9]+}} .b8 alloca[6144];
// ISA-SAME: .shared .align {{[0-9]+}} .b8 alloca_0[6144];
// ISA-SAME: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// ISA-SAME: cp.async.commit_group;
// ISA-SAME: cp.async.wait_group \091;\0A\09bar.sync \090;
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | grep -o 'bar.sync' | count 1

// sm_70 has no cp.async: the loads stay synchronous, still triple-buffered.
// SM70: gpu.binary @pipelined_kernel
// SM70-SAME: .b8 alloca[6144];
// SM70-NOT: cp.async
func.func @pipelined(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[16, 1, 16, 4, 1], [16, 1, 16, 4, 1], [128, 8, 1]], unroll = 16, vector = [4, 4], stages = 3>}
    ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
