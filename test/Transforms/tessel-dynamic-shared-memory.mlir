// RUN: tessel-opt %s --split-input-file --tessel-dynamic-shared-memory | FileCheck %s
// RUN: tessel-opt %s --split-input-file --tessel-dynamic-shared-memory="max-bytes=65536" -verify-diagnostics

// A kernel whose shared tiles take 40 KiB + 8 bytes + 16 KiB (the second
// padded to 16 bytes: 57,360 bytes) is over the 48 KiB static limit: its
// globals become views of one dynamic buffer at the offsets of their static
// layout, and its launch allocates the total. A view of a global's bytes
// becomes a view of the dynamic buffer (constant shift folded); another use
// gets a view of the global's bytes.
// CHECK-LABEL: func.func @large
// CHECK:         %[[SIZE:.+]] = arith.constant 57360 : i32
// CHECK:         gpu.launch_func @large_kernel::@large_kernel {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK-LABEL: gpu.module @large_kernel
// CHECK-NOT:     memref.global
// CHECK:         gpu.func @large_kernel
// CHECK:           %[[BASE:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[A:.+]] = memref.view %[[BASE]][%c4096{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[SMALL_AT:.+]] = arith.constant 40960 : index
// CHECK-DAG:       %[[SMALL:.+]] = memref.view %[[BASE]][%[[SMALL_AT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:       memref.store %{{.+}}, %[[SMALL]]
// CHECK-DAG:       %[[B_AT:.+]] = arith.constant 40976 : index
// CHECK-DAG:       %[[B_SHIFT:.+]] = arith.addi %[[B_AT]], %{{.+}} : index
// CHECK-DAG:       %[[B:.+]] = memref.view %[[BASE]][%[[B_SHIFT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:       memref.get_global
module attributes {gpu.container_module} {
  func.func @large(%n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @large_kernel::@large_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    return
  }
  gpu.module @large_kernel {
    memref.global "private" @a : memref<40960xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    memref.global "private" @small : memref<8xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    memref.global "private" @b : memref<16384xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @large_kernel(%n: index) kernel {
      %c0 = arith.constant 0 : index
      %c4096 = arith.constant 4096 : index
      %byte = arith.constant 7 : i8
      %0 = memref.get_global @a : memref<40960xi8, #gpu.address_space<workgroup>>
      %1 = memref.get_global @small : memref<8xi8, #gpu.address_space<workgroup>>
      %2 = memref.get_global @b : memref<16384xi8, #gpu.address_space<workgroup>>
      %a = memref.view %0[%c4096][] : memref<40960xi8, #gpu.address_space<workgroup>> to memref<64x32xf32, #gpu.address_space<workgroup>>
      %b = memref.view %2[%n][] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
      memref.store %byte, %1[%c0] : memref<8xi8, #gpu.address_space<workgroup>>
      %x = memref.load %a[%c0, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%c0, %c0] : memref<32x64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// A kernel within the static limit keeps its globals and its launch.
// CHECK-LABEL: func.func @small
// CHECK:         gpu.launch_func @small_kernel::@small_kernel
// CHECK-NOT:     dynamic_shared_memory_size
// CHECK:         memref.global "private" @a : memref<49152xi8
// CHECK:         memref.get_global @a
// CHECK-NOT:     gpu.dynamic_shared_memory
module attributes {gpu.container_module} {
  func.func @small() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @small_kernel::@small_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @small_kernel {
    memref.global "private" @a : memref<49152xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    gpu.func @small_kernel() kernel {
      %c0 = arith.constant 0 : index
      %byte = arith.constant 7 : i8
      %0 = memref.get_global @a : memref<49152xi8, #gpu.address_space<workgroup>>
      memref.store %byte, %0[%c0] : memref<49152xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// Over the chip's limit: the kernel fails at its location (without a
// limit, it gets a dynamic buffer).
// CHECK-LABEL: func.func @huge
// CHECK:         dynamic_shared_memory_size
module attributes {gpu.container_module} {
  func.func @huge() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @huge_kernel::@huge_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @huge_kernel {
    memref.global "private" @a : memref<65552xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
    // expected-error @below {{kernel 'huge_kernel' needs 65552 bytes of shared memory per block, more than the 65536 the chip allows; choose smaller shared tiles or fewer stages}}
    gpu.func @huge_kernel() kernel {
      %c0 = arith.constant 0 : index
      %byte = arith.constant 7 : i8
      %0 = memref.get_global @a : memref<65552xi8, #gpu.address_space<workgroup>>
      memref.store %byte, %0[%c0] : memref<65552xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
