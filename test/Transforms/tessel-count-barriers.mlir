// RUN: tessel-opt %s --tessel-count-barriers=remarks=1 -verify-diagnostics -split-input-file | FileCheck %s

// A synchronously staged loop of 16 steps: a round of global loads into
// shared memory, a barrier (waits for the loads), compute, a barrier before
// the next step overwrites the tile. 32 barriers a thread, 16 after loads;
// the counts join the launch's kernel facts.

memref.global "private" @tile : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @staged
func.func @staged(%a: memref<1024xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: gpu.launch
  // CHECK: tessel.facts = {barriers = 32 : i64, load_barriers = 16 : i64, op = "matmul"}
  // expected-remark @below {{barriers per thread: 32, after global loads: 16}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%p = %c64, %q = %c1, %r = %c1) {
    %s = memref.get_global @tile : memref<64xf32, #gpu.address_space<workgroup>>
    %sum = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %zero) -> (f32) {
      %i = arith.addi %k, %tx : index
      %v = memref.load %a[%i] : memref<1024xf32>
      memref.store %v, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %w : f32
      gpu.barrier
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<64xf32>
    gpu.terminator
  } {tessel.facts = {op = "matmul"}}
  return
}

// -----

// Loads after a loop body's last barrier are waited for by the first
// barrier of the next iteration (the loads of iteration 0 come before the
// loop): each of the 8 iterations' barriers waits for a load. Nested loops
// multiply: 8 x (1 + 4) = 40 barriers, 8 after loads. A barrier under both
// branches of an scf.if counts once; a loop without constant bounds counts
// its constant upper bound.

// CHECK-LABEL: func.func @carried
func.func @carried(%a: memref<1024xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{barriers per thread: 40, after global loads: 8}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%p = %c64, %q = %c1, %r = %c1) {
    %v0 = memref.load %a[%tx] : memref<1024xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      gpu.barrier
      scf.for %j = %c0 to %c4 step %c1 {
        %odd = arith.cmpi ult, %tx, %c2 : index
        scf.if %odd {
          gpu.barrier
        } else {
          gpu.barrier
        }
      }
      %v = memref.load %a[%i] : memref<1024xf32>
    }
    gpu.terminator
  }
  // Bounds not constant: the loop runs at most 4 times (affine.min).
  // expected-remark @below {{barriers per thread: 4, after global loads: 0 (loop bounds not constant)}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%p = %c64, %q = %c1, %r = %c1) {
    %ub = affine.min affine_map<()[s0] -> (s0, 4)>()[%n]
    scf.for %i = %c0 to %ub step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Shared and private loads, and asynchronous copies, do not make a barrier
// wait for global memory.

memref.global "private" @stage : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @not_global
func.func @not_global(%a: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{barriers per thread: 2, after global loads: 0}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%p = %c64, %q = %c1, %r = %c1) {
    %s = memref.get_global @stage : memref<64xf32, #gpu.address_space<workgroup>>
    %t = nvgpu.device_async_copy %a[%tx], %s[%tx], 1 : memref<1024xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    nvgpu.device_async_wait %t
    gpu.barrier
    %v = vector.load %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    gpu.terminator
  }
  return
}
