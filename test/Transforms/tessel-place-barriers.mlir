// RUN: tessel-opt %s -split-input-file --tessel-place-barriers | FileCheck %s

// A staging loop as upstream's thread mapping leaves it: a barrier after
// every copy round and after the math. What remains: one barrier before the
// copies overwrite the tiles the previous step read (before the round loop,
// not in each round) and one before the math reads them; none at the end.
// CHECK-LABEL: func.func @staging
// CHECK: scf.for %[[K:.*]] =
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: vector.store %{{.*}}, %[[A:.*]][
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: vector.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.load %[[A]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @staging(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c256, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %ta = memref.alloca() : memref<32x64xf32, #gpu.address_space<workgroup>>
    %tb = memref.alloca() : memref<64x128xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    %acc = scf.for %k = %c0 to %c1024 step %c64 iter_args(%sum = %zero) -> (vector<4xf32>) {
      scf.for %r = %c0 to %c2 step %c1 {
        %v = vector.load %a[%r, %k] : memref<1024x1024xf32>, vector<4xf32>
        vector.store %v, %ta[%r, %tid] : memref<32x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
      }
      scf.for %r = %c0 to %c4 step %c1 {
        %v = vector.load %b[%k, %r] : memref<1024x1024xf32>, vector<4xf32>
        vector.store %v, %tb[%r, %tid] : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
      }
      %x = vector.load %ta[%tid, %c0] : memref<32x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %y = vector.load %tb[%c0, %tid] : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %s = vector.fma %x, %y, %sum : vector<4xf32>
      scf.yield %s : vector<4xf32>
    }
    gpu.barrier
    vector.store %acc, %c[%tid, %c0] : memref<1024x1024xf32>, vector<4xf32>
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Each thread reads and updates its own partial in one phase (one forall
// body): no barrier inside it. The next phase reads every partial: one
// barrier before it, outside the thread-dependent branch it is in.
// CHECK-LABEL: func.func @own_partials
// CHECK: vector.load %[[P:.*]][%{{.*}}] : memref<32xf32
// CHECK-NOT: gpu.barrier
// CHECK: vector.store
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if %[[FIRST]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @own_partials(%x: memref<32xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %partials = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    %v = vector.load %x[%tid] : memref<32xf32>, vector<1xf32>
    %p = vector.load %partials[%tid] : memref<32xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %s = arith.addf %p, %v : vector<1xf32>
    vector.store %s, %partials[%tid] : memref<32xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %first = arith.cmpi ult, %tid, %c1 : index
    gpu.barrier
    scf.if %first {
      %all = vector.load %partials[%c0] : memref<32xf32, #gpu.address_space<workgroup>>, vector<32xf32>
      %r = vector.extract %all[0] : f32 from vector<32xf32>
      memref.store %r, %out[] : memref<f32>
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A fill and a copy over it in two phases are ordered (the copy's stores
// must land last); fills of one constant in two phases are not.
// CHECK-LABEL: func.func @fill_then_copy
// CHECK: vector.store %[[ZERO:.*]], %[[T:.*]][%c0
// CHECK-NEXT: vector.store %[[ZERO]], %[[T]][%c1
// The copy's load goes before the barrier (in flight while threads wait).
// CHECK-NEXT: %[[V:.*]] = vector.load
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.store %[[V]], %[[T]][%{{.*}}]
// CHECK-NOT: gpu.barrier
func.func @fill_then_copy(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = memref.alloca() : memref<2x64xf32, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    vector.store %zero, %t[%c0, %tid] : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    vector.store %zero, %t[%c1, %tid] : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    %v = vector.load %x[%tid] : memref<64xf32>, vector<4xf32>
    vector.store %v, %t[%c0, %tid] : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A pipelined staging loop's barriers pair with its cp.async waits: the
// launch keeps all of its barriers.
// CHECK-LABEL: func.func @pipelined
// CHECK: gpu.barrier {tessel.pipeline_sync}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.terminator
func.func @pipelined() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier {tessel.pipeline_sync}
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A barrier inside a thread-dependent branch stays: the analysis never puts
// one there, nor takes one away.
// CHECK-LABEL: func.func @divergent
// CHECK: scf.if
// CHECK-NEXT: gpu.barrier
func.func @divergent() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tid = gpu.thread_id x
    %first = arith.cmpi ult, %tid, %c1 : index
    scf.if %first {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Linalg ops that write shared memory: a fill (a constant) then copies of
// two rounds (computed values) in three phases. The copies over the fill
// are ordered after it; the two rounds, which tiling gives disjoint
// elements, need no barrier between them (a padded input's gather in
// examples/conv3x3-resnet.mlir: 24 barriers before, 4 after).
// CHECK-LABEL: func.func @linalg_writes
// CHECK: linalg.fill
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.copy
// CHECK-NEXT: memref.copy
// CHECK-NEXT: gpu.terminator
func.func @linalg_writes(%x: memref<2x64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = memref.alloca() : memref<2x64xf32, #gpu.address_space<workgroup>>
    %row0 = memref.subview %t[0, 0] [1, 64] [1, 1] : memref<2x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
    %row1 = memref.subview %t[1, 0] [1, 64] [1, 1] : memref<2x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    %src0 = memref.subview %x[0, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1]>>
    %src1 = memref.subview %x[1, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1], offset: 64>>
    linalg.fill ins(%zero : f32) outs(%t : memref<2x64xf32, #gpu.address_space<workgroup>>)
    gpu.barrier
    memref.copy %src0, %row0 : memref<64xf32, strided<[1]>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
    gpu.barrier
    memref.copy %src1, %row1 : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Adjacent upstream barriers (materialization leaves two when the forall
// between them is gone, e.g. after --tessel-forward-fills): one placed
// barrier between the shared store and the load. Before, the op recorded
// after the first barrier was the second, erased: a crash.
// CHECK-LABEL: func.func @adjacent_barriers
// CHECK: vector.store
// CHECK-NOT: gpu.barrier
// CHECK: arith.subi
// CHECK: gpu.barrier
// CHECK-NEXT: vector.load
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @adjacent_barriers(%out: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %one = arith.constant dense<1.0> : vector<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %t = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    vector.store %one, %t[%tx] : memref<256xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    gpu.barrier
    gpu.barrier
    %n = arith.subi %c256, %tx : index
    %m = arith.subi %n, %c1 : index
    %v = vector.load %t[%m] : memref<256xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    vector.store %v, %out[%tx] : memref<256xf32>, vector<1xf32>
    gpu.terminator
  }
  return
}
