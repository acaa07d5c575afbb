// RUN: tessel-opt %s --pass-pipeline="builtin.module(gpu.module(tessel-extern-dynamic-shared-memory))" | FileCheck %s

// Upstream's dynamic shared memory global becomes external (CUDA's `extern
// __shared__`); other globals keep their linkage.
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @__dynamic_shmem__1() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__dynamic_shmem__1() {alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  }
}
