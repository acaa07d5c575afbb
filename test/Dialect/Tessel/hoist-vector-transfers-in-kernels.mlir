// RUN: tessel-opt %s --transform-interpreter | FileCheck %s

// transform.tessel.hoist_vector_transfers_in_kernels hoists what upstream's
// transform.structured.hoist_redundant_vector_transfers hoists, kernel by
// kernel: the first kernel's accumulator leaves its loop; the second
// kernel's does not, because a third kernel reads its buffer through a view
// (upstream's rule, which judges a buffer by all its users, is kept).

// CHECK-LABEL: func.func @kernels
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[C:.*]]: memref<16xf32>, %[[D:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: gpu.launch
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[C]]
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<4xf32>)
// CHECK-NOT: %[[C]][
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[SUM]], %[[C]]
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read %[[D]]
// CHECK: vector.transfer_write {{.*}}, %[[D]]{{.*}} : vector<4xf32>, memref<16xf32>
// CHECK-NEXT: }
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.subview %[[D]][4] [4] [1]
func.func @kernels(%a: memref<64xf32>, %c: memref<16xf32>, %d: memref<16xf32>, %out: memref<4xf32>) {
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
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %base = arith.muli %tx, %c4 : index
    scf.for %k = %c0 to %c16 step %c1 {
      %acc = vector.transfer_read %d[%base], %pad {in_bounds = [true]} : memref<16xf32>, vector<4xf32>
      %off = arith.muli %k, %c4 : index
      %x = vector.transfer_read %a[%off], %pad {in_bounds = [true]} : memref<64xf32>, vector<4xf32>
      %s = arith.addf %acc, %x : vector<4xf32>
      vector.transfer_write %s, %d[%base] {in_bounds = [true]} : vector<4xf32>, memref<16xf32>
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.subview %d[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
    memref.copy %v, %out : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %hoisted = transform.tessel.hoist_vector_transfers_in_kernels %funcs : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
