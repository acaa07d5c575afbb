// RUN: tessel-opt %s -split-input-file --transform-interpreter | FileCheck %s

// transform.tessel.hoist_kernel_accumulators: a kernel's accumulator (a read
// and a write of the same slice in its reduction loop) is hoisted even when
// a later kernel reads the buffer through a view, which upstream's
// transform.structured.hoist_redundant_vector_transfers refuses.

// CHECK-LABEL: func.func @viewed_by_later_kernel
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[C:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: gpu.launch
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[C]]
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4xf32>)
// CHECK-NOT: %[[C]][
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[SUM]], %[[C]]
// CHECK: gpu.terminator
// The later kernel and the host code keep their uses of the buffer.
// CHECK: gpu.launch
// CHECK: memref.subview %[[C]][4] [4] [1]
// CHECK-NOT: unrealized_conversion_cast
func.func @viewed_by_later_kernel(%a: memref<64xf32>, %c: memref<16xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %tx, %c4 : index
    scf.for %k = %c0 to %c16 step %c1 {
      %acc = vector.transfer_read %c[%base], %pad {in_bounds = [true]} : memref<16xf32>, vector<4xf32>
      %off = arith.muli %k, %c4 : index
      %x = vector.transfer_read %a[%off], %pad {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
      %s = arith.addf %acc, %x : vector<4xf32>
      vector.transfer_write %s, %c[%base] {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
    }
    gpu.terminator
  } {tessel.accumulators = 1 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.subview %c[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
    memref.copy %v, %out : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launches = transform.structured.match attributes {tessel.accumulators = 1 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.hoist_kernel_accumulators %launches : !transform.any_op
    transform.yield
  }
}

// -----

// Inside the kernel the buffer is still judged as upstream judges it: a view
// of it in the loop keeps the accumulator where it is.
// CHECK-LABEL: func.func @viewed_in_the_loop
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}]
// CHECK: memref.subview
// CHECK: vector.transfer_write
func.func @viewed_in_the_loop(%a: memref<64xf32>, %c: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %tx, %c4 : index
    scf.for %k = %c0 to %c16 step %c1 {
      %acc = vector.transfer_read %c[%base], %pad {in_bounds = [true]} : memref<16xf32>, vector<4xf32>
      %off = arith.muli %k, %c4 : index
      %x = vector.transfer_read %a[%off], %pad {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
      %view = memref.subview %c[%k] [1] [1] : memref<16xf32> to memref<1xf32, strided<[1], offset: ?>>
      %y = memref.load %view[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %yv = vector.broadcast %y : f32 to vector<4xf32>
      %s = arith.addf %acc, %x : vector<4xf32>
      %t = arith.addf %s, %yv : vector<4xf32>
      vector.transfer_write %t, %c[%base] {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
    }
    gpu.terminator
  } {tessel.accumulators = 1 : i64}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %launches = transform.structured.match attributes {tessel.accumulators = 1 : i64} in %root : (!transform.any_op) -> !transform.any_op
    transform.tessel.hoist_kernel_accumulators %launches : !transform.any_op
    transform.yield
  }
}
