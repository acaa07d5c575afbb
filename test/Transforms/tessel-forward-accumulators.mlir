// RUN: tessel-opt %s -split-input-file --tessel-forward-accumulators | FileCheck %s

// A fused epilogue's accumulator: 16 threads each fill a 4-element row of
// the 16 x 4 tile, load it as accumulators, store the results after the
// main loop and read them back as one vector for the epilogue. Every load
// reads what its own thread stored: the accumulators start as the fill's
// zeros, the epilogue adds to the loop's results, and the shared buffer,
// its stores and its global go.

memref.global "private" @acc : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#col1 = affine_map<()[s0] -> (s0 * 0 + 1)>
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT: memref.global
// CHECK: gpu.launch
// CHECK-NOT: memref.get_global
// CHECK-NOT: vector.load %{{.*}} : memref<16x4xf32
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK-NOT: vector.store %{{.*}} : memref<16x4xf32
// CHECK: %[[A:.*]] = vector.extract %[[R]]#0[0]
// CHECK: %[[B:.*]] = vector.extract %[[R]]#1[0]
// CHECK: %[[Z0:.*]] = vector.extract %{{.*}}[2]
// CHECK: %[[Z1:.*]] = vector.extract %{{.*}}[3]
// CHECK: %[[V:.*]] = vector.from_elements %[[A]], %[[B]], %[[Z0]], %[[Z1]] : vector<4xf32>
// CHECK: arith.addf %[[V]], %{{.*}} : vector<4xf32>
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<16x4xf32>, vector<4xf32>
// CHECK: gpu.terminator
func.func @epilogue(%out: memref<16x4xf32>, %bias: vector<4xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %one = arith.constant dense<1.0> : vector<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @acc : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %zero, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    %j1 = affine.apply #col1()[%tx]
    %p0 = vector.load %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %q0 = vector.load %acc[%tx, %j1] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %r:2 = scf.for %s = %c0 to %k step %c1 iter_args(%p = %p0, %q = %q0) -> (vector<1xf32>, vector<1xf32>) {
      %p1 = arith.addf %p, %one : vector<1xf32>
      %q1 = arith.addf %q, %one : vector<1xf32>
      scf.yield %p1, %q1 : vector<1xf32>, vector<1xf32>
    }
    gpu.barrier
    vector.store %r#1, %acc[%tx, %j1] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    vector.store %r#0, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %v = vector.load %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %sum = arith.addf %v, %bias : vector<4xf32>
    vector.store %sum, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Thread t reads the row thread t + 1 stored (a cross-thread exchange):
// the barrier orders it and the buffer stays.

memref.global "private" @acc : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#next = affine_map<()[s0] -> ((s0 + 1) mod 16)>
// CHECK-LABEL: func.func @other_thread
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: vector.load %{{.*}} : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
func.func @other_thread(%out: memref<16x4xf32>, %in: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @acc : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    %n = affine.apply #next()[%tx]
    %v = vector.load %acc[%n, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Two threads write one element (thread t writes row t / 2): the value a
// thread reads back may be the other's, so the buffer stays.

memref.global "private" @acc : memref<8x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#half = affine_map<()[s0] -> (s0 floordiv 2)>
// CHECK-LABEL: func.func @shared_element
// CHECK: memref.get_global @acc
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %{{.*}} : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
func.func @shared_element(%out: memref<16x4xf32>, %in: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @acc : memref<8x4xf32, #gpu.address_space<workgroup>>
    %h = affine.apply #half()[%tx]
    vector.store %in, %acc[%h, %c0] : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %v = vector.load %acc[%h, %c0] : memref<8x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// An access in a loop (a shared accumulator of a kernel that does not keep
// it in registers), an index of the block id, and a load of an element the
// thread never stored: each buffer stays.

memref.global "private" @in_loop : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
memref.global "private" @by_block : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
memref.global "private" @unwritten : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#plus = affine_map<()[s0, s1] -> ((s0 + s1) mod 16)>
// CHECK-LABEL: func.func @kept
// CHECK-DAG: memref.get_global @in_loop
// CHECK-DAG: memref.get_global @by_block
// CHECK-DAG: memref.get_global @unwritten
// CHECK: gpu.terminator
func.func @kept(%out: memref<16x4xf32>, %in: vector<4xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c16, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %l = memref.get_global @in_loop : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %l[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    scf.for %s = %c0 to %k step %c1 {
      %v = vector.load %l[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %w = arith.addf %v, %in : vector<4xf32>
      vector.store %w, %l[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    }
    %v0 = vector.load %l[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>

    %bb = memref.get_global @by_block : memref<16x4xf32, #gpu.address_space<workgroup>>
    %r = affine.apply #plus()[%tx, %bx]
    vector.store %in, %bb[%r, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %v1 = vector.load %bb[%r, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>

    %u = memref.get_global @unwritten : memref<16x4xf32, #gpu.address_space<workgroup>>
    %half = vector.extract_strided_slice %in {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
    vector.store %half, %u[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<2xf32>
    %v2 = vector.load %u[%tx, %c2] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<2xf32>

    %s01 = arith.addf %v0, %v1 : vector<4xf32>
    vector.store %s01, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    vector.store %v2, %out[%tx, %c2] : memref<16x4xf32>, vector<2xf32>
    gpu.terminator
  }
  return
}

// -----

// Globals are erased once nothing refers to them: @shared, used by a kernel
// whose accumulator is forwarded and by one exchanging rows, stays (for the
// second kernel); @private, used by two forwarded kernels, goes.

memref.global "private" @shared : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
memref.global "private" @private : memref<16x4xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#next = affine_map<()[s0] -> ((s0 + 1) mod 16)>
// CHECK-LABEL: memref.global "private" @shared
// CHECK-NOT: memref.global "private" @private
// CHECK-LABEL: func.func @globals
// CHECK: gpu.launch
// CHECK-NOT: memref.get_global
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK-NOT: memref.get_global
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.get_global @shared
// CHECK: gpu.barrier
// CHECK: gpu.terminator
func.func @globals(%out: memref<16x4xf32>, %in: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @shared : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %v = vector.load %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @private : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %v = vector.load %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @private : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %v = vector.load %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c16, %b = %c1, %d = %c1) {
    %acc = memref.get_global @shared : memref<16x4xf32, #gpu.address_space<workgroup>>
    vector.store %in, %acc[%tx, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    %n = affine.apply #next()[%tx]
    %v = vector.load %acc[%n, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %out[%tx, %c0] : memref<16x4xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}
