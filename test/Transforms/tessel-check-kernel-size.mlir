// RUN: tessel-opt %s --tessel-check-kernel-size="max-loops=3" | FileCheck %s
// RUN: tessel-opt %s --tessel-check-kernel-size="max-loops=2" -verify-diagnostics
// RUN: tessel-opt %s --tessel-check-kernel-size="max-loops=0" | FileCheck %s

// A kernel with three loops passes a limit of three (and no limit); a limit
// of two rejects it at the kernel, naming the count and the limit. Functions
// that are not kernels are not counted.
// CHECK: gpu.func @three_loops
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{kernel 'three_loops' has 3 loops after unrolling, more than max-loops=2: LLVM would take minutes to compile it; choose a schedule that unrolls less or keeps a smaller tile per thread}}
    gpu.func @three_loops(%buffer: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          memref.store %zero, %buffer[%j] : memref<4xf32>
        }
      }
      scf.for %k = %c0 to %c4 step %c1 {
        memref.store %zero, %buffer[%k] : memref<4xf32>
      }
      gpu.return
    }
    gpu.func @helper(%buffer: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          memref.store %zero, %buffer[%j] : memref<4xf32>
        }
      }
      gpu.return
    }
  }
}
