// RUN: tessel-opt %s -split-input-file --tessel-forward-fills | FileCheck %s

// A thread's accumulators start as the fill's constant: the loads of what
// it stored become the constant (the element within a stored pair found by
// the difference of the affine maps), and the stores go when the thread's
// final stores overwrite every element and nothing else reads C.

#row = affine_map<()[s0] -> (s0 * 4)>
#col = affine_map<()[s0, s1] -> (s0 * 2 + s1 * 64)>
#col1 = affine_map<()[s0, s1] -> (s0 * 2 + s1 * 64 + 1)>
// CHECK-LABEL: func.func @forwarded
// CHECK: gpu.launch
// CHECK-NOT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x128xf32>, vector<2xf32>
// CHECK-NOT: vector.load
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %{{.*}})
// CHECK: vector.store
// CHECK: vector.store
// CHECK: gpu.terminator
func.func @forwarded(%c: memref<64x128xf32>, %k: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<2xf32>
  %one = arith.constant dense<1.0> : vector<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %d = %c1) {
    %i = affine.apply #row()[%tx]
    %j = affine.apply #col()[%tx, %bx]
    vector.store %zero, %c[%i, %j] : memref<64x128xf32>, vector<2xf32>
    gpu.barrier
    %j1 = affine.apply #col1()[%tx, %bx]
    %acc0 = vector.load %c[%i, %j] : memref<64x128xf32>, vector<1xf32>
    %acc1 = vector.load %c[%i, %j1] : memref<64x128xf32>, vector<1xf32>
    %r:2 = scf.for %s = %c0 to %k step %c1 iter_args(%p = %acc0, %q = %acc1) -> (vector<1xf32>, vector<1xf32>) {
      %p1 = arith.addf %p, %one : vector<1xf32>
      %q1 = arith.addf %q, %one : vector<1xf32>
      scf.yield %p1, %q1 : vector<1xf32>, vector<1xf32>
    }
    gpu.barrier
    vector.store %r#1, %c[%i, %j1] : memref<64x128xf32>, vector<1xf32>
    vector.store %r#0, %c[%i, %j] : memref<64x128xf32>, vector<1xf32>
    gpu.terminator
  }
  return
}

// -----

// The final stores cover half of what the fill wrote: the loads are
// forwarded, the fill stays (the other element keeps its zero).
#row = affine_map<()[s0] -> (s0 * 4)>
#col = affine_map<()[s0] -> (s0 * 2)>
// CHECK-LABEL: func.func @partly_overwritten
// CHECK: gpu.launch
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<64x128xf32>, vector<2xf32>
// CHECK-NOT: vector.load
// CHECK: arith.constant dense<0.000000e+00> : vector<1xf32>
func.func @partly_overwritten(%c: memref<64x128xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<2xf32>
  %one = arith.constant dense<1.0> : vector<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %d = %c1) {
    %i = affine.apply #row()[%tx]
    %j = affine.apply #col()[%tx]
    vector.store %zero, %c[%i, %j] : memref<64x128xf32>, vector<2xf32>
    %acc = vector.load %c[%i, %j] : memref<64x128xf32>, vector<1xf32>
    %sum = arith.addf %acc, %one : vector<1xf32>
    vector.store %sum, %c[%i, %j] : memref<64x128xf32>, vector<1xf32>
    gpu.terminator
  }
  return
}

// -----

// Loads of elements another thread stored (an index the thread's fill did
// not write), or after a store of computed values, are left alone.
#row = affine_map<()[s0] -> (s0 * 4)>
#next = affine_map<()[s0] -> (s0 * 4 + 4)>
// CHECK-LABEL: func.func @not_forwarded
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<64x128xf32>, vector<2xf32>
// CHECK: vector.load
// CHECK: vector.store
// CHECK: vector.load
func.func @not_forwarded(%c: memref<64x128xf32>, %v: vector<1xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %d = %c1) {
    %i = affine.apply #row()[%tx]
    %n = affine.apply #next()[%tx]
    vector.store %zero, %c[%i, %c0] : memref<64x128xf32>, vector<2xf32>
    gpu.barrier
    %other = vector.load %c[%n, %c0] : memref<64x128xf32>, vector<1xf32>
    vector.store %other, %c[%i, %c1] : memref<64x128xf32>, vector<1xf32>
    %mine = vector.load %c[%i, %c0] : memref<64x128xf32>, vector<1xf32>
    vector.store %mine, %c[%i, %c0] : memref<64x128xf32>, vector<1xf32>
    gpu.terminator
  }
  return
}
