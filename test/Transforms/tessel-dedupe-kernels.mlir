// RUN: tessel-opt %s --tessel-dedupe-kernels | FileCheck %s

// @second is @first with other names (its module, kernel and shared
// global): its launch goes to @first and it is erased, with its facts.
// @third differs (a constant): it stays.
// CHECK: module attributes {gpu.container_module, tessel.kernel_facts = {first = {flops = 1.000000e+00 : f64}, third = {flops = 3.000000e+00 : f64}}}
// CHECK: gpu.launch_func @first::@first_kernel
// CHECK: gpu.launch_func @first::@first_kernel
// CHECK: gpu.launch_func @third::@third_kernel
// CHECK: gpu.module @first
// CHECK-NOT: gpu.module @second
// CHECK: gpu.module @third
module attributes {gpu.container_module, tessel.kernel_facts = {first = {flops = 1.0 : f64}, second = {flops = 2.0 : f64}, third = {flops = 3.0 : f64}}} {
  func.func @f(%buffer: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first::@first_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buffer : memref<4xf32>)
    gpu.launch_func @second::@second_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buffer : memref<4xf32>)
    gpu.launch_func @third::@third_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buffer : memref<4xf32>)
    return
  }
  gpu.module @first {
    memref.global "private" @tile_a : memref<16xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @first_kernel(%buffer: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      %tile = memref.get_global @tile_a : memref<16xi8, #gpu.address_space<workgroup>>
      memref.store %x, %buffer[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @second {
    memref.global "private" @tile_b : memref<16xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @second_kernel(%buffer: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      %tile = memref.get_global @tile_b : memref<16xi8, #gpu.address_space<workgroup>>
      memref.store %x, %buffer[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @third {
    memref.global "private" @tile_c : memref<16xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @third_kernel(%buffer: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = arith.constant 2.0 : f32
      %tile = memref.get_global @tile_c : memref<16xi8, #gpu.address_space<workgroup>>
      memref.store %x, %buffer[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
