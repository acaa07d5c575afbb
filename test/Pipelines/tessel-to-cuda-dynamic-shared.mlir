// REQUIRES: ptxas
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin resources-file=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: not tessel-opt %s --tessel-to-cuda="chip=sm_75 format=isa" 2>&1 | FileCheck %s --check-prefix=SM75

// A 128x128 block tile with K = 32 a staging step, double-buffered: its
// shared tiles take 2 x (16 + 16) KiB = 64 KiB, above the 48 KiB CUDA allows
// static shared memory. The tiles live in dynamic shared memory, declared as
// CUDA's `extern __shared__` array (not a demoted one-byte variable), and
// the launch allocates 64 KiB; ptxas reports no static shared memory and the
// resources count the dynamic bytes. sm_75 allows 64 KiB a block, less than
// the 4-stage variant needs.

// ISA: %[[SIZE:.+]] = llvm.mlir.constant(65536 : i32) : i32
// ISA: gpu.launch_func @f_kernel::@f_kernel {{.*}} dynamic_shared_memory_size %[[SIZE]]
// ISA: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// ISA-NOT: demoted variable

// JSON: "dynamic_shared_memory_bytes": 65536,
// JSON: "kernel": "f_kernel",
// JSON: "shared_memory_bytes": 65536,

// SM75: error: kernel 'g_kernel' needs 131072 bytes of shared memory per block, more than the 65536 the chip allows; choose smaller shared tiles or fewer stages
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[2, 1, 16, 8, 1], [2, 1, 16, 8, 1], [8, 32, 1]], unroll = 16, vector = [4, 4], stages = 2>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

func.func @g(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[2, 1, 16, 8, 1], [2, 1, 16, 8, 1], [8, 32, 1]], unroll = 16, vector = [4, 4], stages = 4>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
