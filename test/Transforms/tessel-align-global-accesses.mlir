// RUN: tessel-opt %s -split-input-file --tessel-align-global-accesses -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-align-global-accesses=buffer-alignment=0 | FileCheck %s --check-prefix=NONE

// The alignment of each global vector access, from the trailing zeros of
// its element offset and the 16-byte buffer contract; the host checks the
// arguments that reach a kernel relying on it, and aligns its allocations.

// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.*]]: memref<64x64xf32>, %[[B:.*]]: memref<64x64xf32>)
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[LOW:.*]] = arith.andi %[[PA]], %c15
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK: cf.assert %[[OK]], "tessel: argument 0 of @host must start at a multiple of 16 bytes, as the vector accesses of its kernels assume (compile with buffer-alignment=0 for unaligned buffers)"
// CHECK-NOT: cf.assert
// CHECK: memref.alloc() {alignment = 16 : i64}
// CHECK: memref.alloc() {alignment = 64 : i64}
// NONE-NOT: cf.assert
// NONE-NOT: alignment = {{(8|16) }}
// NONE-NOT: tessel.buffer_alignment
module attributes {gpu.container_module} {
func.func @host(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64x64xf32>
  %u = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
  // %b only reaches a kernel through scalar-aligned accesses: no check.
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %t : memref<64x64xf32>, %u : memref<64x64xf32>)
  return
}

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @k
  // CHECK-SAME: %arg0: memref<64x64xf32> {tessel.buffer_alignment = 16 : i64}
  // CHECK-SAME: %arg1: memref<64x64xf32>,
  // CHECK-SAME: %arg2: memref<64x64xf32> {tessel.buffer_alignment = 16 : i64}
  // CHECK-SAME: %arg3: memref<64x64xf32> {tessel.buffer_alignment = 16 : i64}
  gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %t: memref<64x64xf32>, %u: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %row = gpu.block_id x
    %j = arith.muli %tid, %c4 : index
    // tid * 4 floats: 16 bytes.
    // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
    %v0 = vector.load %a[%row, %j] : memref<64x64xf32>, vector<4xf32>
    // (tid * 2) * 2 floats: the zeros of factors add up.
    // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
    %twice = arith.muli %tid, %c2 : index
    %j4 = arith.muli %twice, %c2 : index
    %v4 = vector.load %a[%row, %j4] : memref<64x64xf32>, vector<4xf32>
    // tid * 4 + 1 floats: only the element's 4 bytes.
    // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf32>, vector<4xf32>
    %j1 = arith.addi %j, %c1 : index
    %v1 = vector.load %b[%row, %j1] : memref<64x64xf32>, vector<4xf32>
    // A loop from 0 by 4: 16 bytes; the row stride (64 floats) keeps it.
    // CHECK: scf.for
    // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
    // A loop from 0 by 2: 8 bytes, of an access of 16.
    // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x64xf32>, vector<4xf32>
    scf.for %i = %c0 to %c64 step %c4 {
      %w = vector.load %t[%tid, %i] : memref<64x64xf32>, vector<4xf32>
      %i2 = arith.muli %i, %c2 : index
      %k = arith.divui %i2, %c4 : index
      %k2 = arith.muli %k, %c2 : index
      %x = vector.load %t[%tid, %k2] : memref<64x64xf32>, vector<4xf32>
      %s = arith.addf %w, %x : vector<4xf32>
      vector.store %s, %u[%tid, %i] : memref<64x64xf32>, vector<4xf32>
    }
    // A view at a static offset of 2 floats: 8 bytes.
    // CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<4xf32, strided<[1], offset: 2>>, vector<2xf32>
    %view = memref.reinterpret_cast %u to offset: [2], sizes: [4], strides: [1] : memref<64x64xf32> to memref<4xf32, strided<[1], offset: 2>>
    %pair = vector.extract_strided_slice %v0 {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
    vector.store %pair, %view[%c0] : memref<4xf32, strided<[1], offset: 2>>, vector<2xf32>
    // Shared memory is not a kernel argument: left to LLVM.
    // CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %shared = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
    vector.store %v1, %shared[%c0, %j] : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.return
  }
}
}

// -----

// A buffer of unknown origin cannot be checked: the launch is an error.
module attributes {gpu.container_module} {
func.func private @make() -> memref<64xf32>

func.func @unknown_origin() {
  %c1 = arith.constant 1 : index
  %m = func.call @make() : () -> memref<64xf32>
  // expected-error @+1 {{kernel 'k' relies on argument 0 starting at a multiple of 16 bytes, which its launch cannot guarantee; compile with buffer-alignment=0}}
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<64xf32>)
  return
}

gpu.module @kernels {
  gpu.func @k(%a: memref<64xf32>) kernel {
    %tid = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %i = arith.muli %tid, %c4 : index
    %v = vector.load %a[%i] : memref<64xf32>, vector<4xf32>
    vector.store %v, %a[%i] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}
}
