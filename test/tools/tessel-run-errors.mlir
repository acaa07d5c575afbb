// tessel-run refuses what it cannot measure with one clear line and a
// non-zero exit.

// No GPU (forced, so the test means the same on a GPU machine):
// RUN: env TESSEL_CUDA_DRIVER=/nonexistent/libcuda.so.1 not tessel-run %s --measure=cuda 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: tessel-run: no CUDA driver/device found: cannot open /nonexistent/libcuda.so.1
// NOGPU-NOT: {

// RUN: not tessel-run %s --measure=opencl 2>&1 | FileCheck %s --check-prefix=MEASURER
// MEASURER: tessel-run: unknown measurer 'opencl' (use cuda or sim:<device>)

// RUN: not tessel-run %s --measure=sim:nonesuch 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: tessel-run: {{.*}}nonesuch

// RUN: not tessel-run %s --measure=sim:h100 --function=missing 2>&1 | FileCheck %s --check-prefix=FUNC
// FUNC: error: no function @missing

// RUN: not tessel-run %S/Inputs/tessel-run-two-functions.mlir --measure=sim:h100 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: the module has several public functions (@f, @g); choose one with --function

func.func @forward(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
