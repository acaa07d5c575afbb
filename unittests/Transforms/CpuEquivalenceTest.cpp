//===- CpuEquivalenceTest.cpp - Scheduled IR computes what the op does ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// For every supported op kind, random valid schedules are materialized up to
// (not including) the GPU mapping: block and thread loops are still
// `scf.forall`, shared memory is plain memory. That IR is compiled for the
// CPU with MLIR's execution engine and run on random inputs; its output must
// match the unscheduled op's (relative error below 1e-5).
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Dialect/Tessel/Transforms/Fusion.h"
#include "tessel/Dialect/Tessel/Transforms/Im2Col.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/InitAllDialects.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// One op kind under test: a function `@f` of tensor arguments returning one
/// tensor, whose op marked `test.target` is scheduled.
struct OpKind {
  const char *name;
  const char *source;
  /// Sketch to use, with `fused_consumers` for the fused case.
  int64_t fusedConsumers = 0;
  /// Stage every input with a strict-inlinable producer and inline it.
  bool inlineProducers = false;
  /// Schedule the op as a cross_thread_reduction instead of the default
  /// multi_level_tiling.
  bool crossThread = false;
};

/// Softmax's exp-sum and, as its row epilogue, the normalization (scheduled
/// under both reduction sketches below).
constexpr const char *kRowEpilogueSoftmax = R"mlir(
func.func @f(%x: tensor<16x96xf32>, %m: tensor<16xf32>) -> tensor<16x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {test.target, indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<16x96xf32>, tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %p = math.exp %d : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<16x96xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16x96xf32>) {
  ^bb0(%a: f32, %b: f32, %t: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %p = math.exp %d : f32
    %q = arith.divf %p, %t : f32
    linalg.yield %q : f32
  } -> tensor<16x96xf32>
  return %y : tensor<16x96xf32>
})mlir";

// Shapes are small so a run takes milliseconds, yet have several divisors
// per loop so the random schedules differ.
const OpKind kOpKinds[] = {
    {"matmul", R"mlir(
func.func @f(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir"},
    {"batch_matmul", R"mlir(
func.func @f(%a: tensor<4x16x24xf32>, %b: tensor<4x24x32xf32>, %c: tensor<4x16x32xf32>) -> tensor<4x16x32xf32> {
  %0 = linalg.batch_matmul {test.target} ins(%a, %b : tensor<4x16x24xf32>, tensor<4x24x32xf32>) outs(%c : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  return %0 : tensor<4x16x32xf32>
})mlir"},
    {"matmul_transpose_b", R"mlir(
func.func @f(%a: tensor<32x48xf32>, %b: tensor<64x48xf32>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<32x48xf32>, tensor<64x48xf32>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir"},
    {"conv_1d_nwc_wcf", R"mlir(
func.func @f(%x: tensor<2x34x8xf32>, %w: tensor<3x8x16xf32>, %y: tensor<2x32x16xf32>) -> tensor<2x32x16xf32> {
  %0 = linalg.conv_1d_nwc_wcf {test.target, dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x34x8xf32>, tensor<3x8x16xf32>) outs(%y : tensor<2x32x16xf32>) -> tensor<2x32x16xf32>
  return %0 : tensor<2x32x16xf32>
})mlir"},
    {"conv_2d_nchw_fchw", R"mlir(
func.func @f(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%y : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
})mlir"},
    {"conv_2d_nchw_fchw_stride2", R"mlir(
func.func @f(%x: tensor<1x4x17x17xf32>, %w: tensor<8x4x3x3xf32>, %y: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x17x17xf32>, tensor<8x4x3x3xf32>) outs(%y : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
})mlir"},
    {"conv_2d_nhwc_hwcf", R"mlir(
func.func @f(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %y: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%y : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
})mlir"},
    {"conv_3d_ndhwc_dhwcf", R"mlir(
func.func @f(%x: tensor<1x6x6x6x4xf32>, %w: tensor<3x3x3x4x8xf32>, %y: tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32> {
  %0 = linalg.conv_3d_ndhwc_dhwcf {test.target, dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x6x6x6x4xf32>, tensor<3x3x3x4x8xf32>) outs(%y : tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32>
  return %0 : tensor<1x4x4x4x8xf32>
})mlir"},
    {"depthwise_conv_2d_nhwc_hwc", R"mlir(
func.func @f(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16xf32>, %y: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%y : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
})mlir"},
    {"depthwise_conv_2d_nchw_chw", R"mlir(
func.func @f(%x: tensor<1x16x10x10xf32>, %w: tensor<16x3x3xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x3x3xf32>) outs(%y : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
})mlir"},
    {"group_conv_2d_ngchw_gfchw", R"mlir(
func.func @f(%x: tensor<1x2x4x10x10xf32>, %w: tensor<2x8x4x3x3xf32>, %y: tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x4x10x10xf32>, tensor<2x8x4x3x3xf32>) outs(%y : tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32>
  return %0 : tensor<1x2x8x8x8xf32>
})mlir"},
    {"matmul_bias_relu_fused", R"mlir(
func.func @f(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %bias: tensor<64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %mm = linalg.matmul {test.target} ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%e2 : tensor<32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
})mlir",
     /*fusedConsumers=*/1},
    {"conv_bias_relu_fused", R"mlir(
func.func @f(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x16x8x8xf32>, tensor<16xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
})mlir",
     /*fusedConsumers=*/1},
    {"conv_pad_inlined", R"mlir(
func.func @f(%x: tensor<1x8x8x8xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %c : tensor<1x16x8x8xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/true},
    {"conv_stride2_pad_inlined", R"mlir(
func.func @f(%x: tensor<1x4x16x16xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %one = arith.constant 1.5 : f32
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x16x16xf32> to tensor<1x4x17x17xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x4x17x17xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %c : tensor<1x8x8x8xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/true},
    {"conv_pad_inlined_bias_relu_fused", R"mlir(
func.func @f(%x: tensor<1x8x8x8xf32>, %w: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x16x8x8xf32>, tensor<16xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
})mlir",
     /*fusedConsumers=*/1, /*inlineProducers=*/true},
    {"matmul_transposed_b_inlined", R"mlir(
func.func @f(%a: tensor<32x48xf32>, %bt: tensor<64x48xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<48x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, n) -> (n, k)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bt : tensor<64x48xf32>) outs(%te : tensor<48x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<48x64xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/true},
    {"matmul_biased_a_inlined", R"mlir(
func.func @f(%x: tensor<32x48xf32>, %bias: tensor<48xf32>, %b: tensor<48x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ae = tensor.empty() : tensor<32x48xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (k)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<32x48xf32>, tensor<48xf32>) outs(%ae : tensor<32x48xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/true},
    {"elementwise_generic", R"mlir(
func.func @f(%a: tensor<8x16x32xf32>, %b: tensor<32xf32>, %c: tensor<8x16x32xf32>) -> tensor<8x16x32xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<8x16x32xf32>, tensor<32xf32>) outs(%c : tensor<8x16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<8x16x32xf32>
  return %0 : tensor<8x16x32xf32>
})mlir"},
    // Prime extents: no tile but 1 and the extent divides them, so the
    // schedules cover them with boundary blocks (see below).
    {"elementwise_prime_extents", R"mlir(
func.func @f(%a: tensor<7x13x37xf32>, %b: tensor<37xf32>, %c: tensor<7x13x37xf32>) -> tensor<7x13x37xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<7x13x37xf32>, tensor<37xf32>) outs(%c : tensor<7x13x37xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<7x13x37xf32>
  return %0 : tensor<7x13x37xf32>
})mlir"},
    {"transpose_prime_extents", R"mlir(
func.func @f(%a: tensor<13x97xf32>, %c: tensor<97x13xf32>) -> tensor<97x13xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<13x97xf32>) outs(%c : tensor<97x13xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.negf %x : f32
    linalg.yield %t : f32
  } -> tensor<97x13xf32>
  return %0 : tensor<97x13xf32>
})mlir"},
    {"row_reduction_generic", R"mlir(
func.func @f(%a: tensor<24x96xf32>, %c: tensor<24xf32>) -> tensor<24xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<24x96xf32>) outs(%c : tensor<24xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %0 : tensor<24xf32>
})mlir"},
    {"cross_thread_row_sum", R"mlir(
func.func @f(%a: tensor<24x96xf32>, %c: tensor<24xf32>) -> tensor<24xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<24x96xf32>) outs(%c : tensor<24xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %0 : tensor<24xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/false,
     /*crossThread=*/true},
    // A softmax row max as frontends write it: the result keeps its unit
    // reduction dim.
    {"cross_thread_row_max_keepdims", R"mlir(
func.func @f(%a: tensor<1x3x8x64xf32>) -> tensor<1x3x8x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x3x8x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x3x8x1xf32>) -> tensor<1x3x8x1xf32>
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(b, h, i, k) -> (b, h, i, k)>, affine_map<(b, h, i, k) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a : tensor<1x3x8x64xf32>) outs(%init : tensor<1x3x8x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x3x8x1xf32>
  return %0 : tensor<1x3x8x1xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/false,
     /*crossThread=*/true},
    // Layer-norm style: a sum of squares, scaled and shifted by a fused
    // consumer with a side input.
    {"cross_thread_sum_of_squares_fused", R"mlir(
func.func @f(%a: tensor<16x96xf32>, %bias: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.0104166670 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<16x96xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%0, %bias : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %m = arith.mulf %x, %scale : f32
    %t = arith.addf %m, %b : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
})mlir",
     /*fusedConsumers=*/1, /*inlineProducers=*/false,
     /*crossThread=*/true},
    // Softmax's exp-sum with the normalization as its row epilogue (the
    // consumer maps every element of the reduced row).
    {"row_epilogue_softmax", kRowEpilogueSoftmax, /*fusedConsumers=*/1},
    {"cross_thread_row_epilogue_softmax", kRowEpilogueSoftmax,
     /*fusedConsumers=*/1, /*inlineProducers=*/false, /*crossThread=*/true},
    // Sums of all elements as the fusion gives them a parallel loop of
    // extent 1 (GiveReductionsToAScalarAUnitLoop): one block reduces all.
    {"sum_to_scalar_2d", R"mlir(
func.func @f(%a: tensor<24x96xf32>, %c: tensor<1xf32>) -> tensor<1xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(u, i, k) -> (i, k)>, affine_map<(u, i, k) -> (u)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%a : tensor<24x96xf32>) outs(%c : tensor<1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
})mlir"},
    {"cross_thread_sum_to_scalar", R"mlir(
func.func @f(%a: tensor<2304xf32>, %c: tensor<1xf32>) -> tensor<1xf32> {
  %0 = linalg.generic {test.target, indexing_maps = [affine_map<(u, k) -> (k)>, affine_map<(u, k) -> (u)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<2304xf32>) outs(%c : tensor<1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/false,
     /*crossThread=*/true},
    {"cross_thread_matvec", R"mlir(
func.func @f(%a: tensor<1x96xf32>, %b: tensor<96x12xf32>, %c: tensor<1x12xf32>) -> tensor<1x12xf32> {
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<1x96xf32>, tensor<96x12xf32>) outs(%c : tensor<1x12xf32>) -> tensor<1x12xf32>
  return %0 : tensor<1x12xf32>
})mlir",
     /*fusedConsumers=*/0, /*inlineProducers=*/false,
     /*crossThread=*/true},
    {"pooling_nchw_max", R"mlir(
func.func @f(%x: tensor<1x8x10x10xf32>, %y: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x8x10x10xf32>, tensor<3x3xf32>) outs(%y : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
})mlir"},
};

/// Number of random schedules per op kind.
constexpr int kSchedulesPerKind = 20;

/// Splits `extent` into `levels` random factors whose product is `extent`.
SmallVector<int64_t> randomSplit(int64_t extent, unsigned levels,
                                 std::mt19937 &rng) {
  SmallVector<int64_t> factors(levels, 1);
  int64_t rest = extent;
  for (unsigned level = 0; level + 1 < levels; ++level) {
    SmallVector<int64_t> divisors;
    for (int64_t d = 1; d <= rest; ++d)
      if (rest % d == 0)
        divisors.push_back(d);
    factors[level + 1] = divisors[rng() % divisors.size()];
    rest /= factors[level + 1];
  }
  factors[0] = rest;
  std::shuffle(factors.begin() + 1, factors.end(), rng);
  return factors;
}

/// A memref descriptor of any rank, laid out as the C interface expects.
struct Descriptor {
  std::vector<int64_t> words;
  explicit Descriptor(ArrayRef<int64_t> shape, float *data = nullptr) {
    words.assign(3 + 2 * shape.size(), 0);
    words[0] = words[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (int64_t i = shape.size() - 1; i >= 0; --i) {
      words[3 + i] = shape[i];
      words[3 + shape.size() + i] = stride;
      stride *= shape[i];
    }
  }
  float *data() const { return reinterpret_cast<float *>(words[1]); }
};

/// A test case: an op kind and the index of the random schedule drawn for it.
using CaseParam = std::tuple<OpKind, int>;

/// Compiles modules for the CPU with MLIR's execution engine and runs them.
class CpuRunner {
protected:
  static void initializeTarget() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  CpuRunner() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Bufferizes (when not yet done) and lowers `module` to the LLVM dialect.
  LogicalResult lowerToLLVM(ModuleOp module, bool bufferize) {
    PassManager pm(&context);
    if (bufferize) {
      bufferization::OneShotBufferizePassOptions options;
      options.bufferizeFunctionBoundaries = true;
      options.functionBoundaryTypeConversion =
          bufferization::LayoutMapOption::IdentityLayoutMap;
      pm.addPass(bufferization::createOneShotBufferizePass(options));
      if (failed(pm.run(module)))
        return failure();
      pm.clear();
      // The bufferized pad of a reference copies with memref.copy, which
      // would need the runtime's memrefCopy: copy with loops instead.
      module.walk([](memref::CopyOp copy) {
        OpBuilder builder(copy);
        linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
        copy.erase();
      });
    }
    pm.addPass(createTesselStripGpuMemorySpaces());
    pm.addPass(createForallToForLoopPass());
    pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
    VectorTransferToSCFOptions vectorToScf;
    vectorToScf.enableFullUnroll();
    pm.addPass(createConvertVectorToSCFPass(vectorToScf));
    pm.addPass(createConvertLinalgToLoopsPass());
    pm.addPass(memref::createExpandStridedMetadataPass());
    pm.addPass(createLowerAffinePass());
    pm.addPass(createSCFToControlFlowPass());
    pm.addPass(createConvertVectorToLLVMPass());
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createFinalizeMemRefToLLVMConversionPass());
    pm.addPass(createConvertToLLVMPass());
    pm.addPass(createReconcileUnrealizedCastsPass());
    return pm.run(module);
  }

  /// Runs `@f` of `module` (already lowered) on copies of `inputs` (the
  /// function may write into its init argument) and reads the result.
  LogicalResult run(ModuleOp module, ArrayRef<std::vector<float>> inputs,
                    ArrayRef<SmallVector<int64_t>> inputShapes,
                    ArrayRef<int64_t> outputShape, std::vector<float> &out) {
    ExecutionEngineOptions options;
    options.transformer = makeOptimizingTransformer(0, 0, nullptr);
    auto engine = ExecutionEngine::create(module, options);
    if (!engine) {
      llvm::consumeError(engine.takeError());
      return failure();
    }
    std::vector<std::vector<float>> copies(inputs.begin(), inputs.end());
    std::vector<Descriptor> descriptors;
    for (auto [data, shape] : llvm::zip(copies, inputShapes))
      descriptors.emplace_back(shape, data.data());
    Descriptor result(outputShape);
    std::vector<void *> pointers;
    pointers.push_back(result.words.data());
    for (Descriptor &d : descriptors)
      pointers.push_back(d.words.data());
    std::vector<void *> args;
    for (void *&p : pointers)
      args.push_back(&p);
    if (llvm::Error error = (*engine)->invokePacked("_mlir_ciface_f", args)) {
      llvm::consumeError(std::move(error));
      return failure();
    }
    int64_t size = 1;
    for (int64_t d : outputShape)
      size *= d;
    // The result may alias an input buffer: copy it, never free it here
    // (a few kilobytes per run).
    out.assign(result.data(), result.data() + size);
    return success();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return module;
    module->walk([](func::FuncOp f) {
      f->setAttr("llvm.emit_c_interface", UnitAttr::get(f.getContext()));
    });
    return module;
  }

  /// The argument shapes and the result shape of the first function.
  static void getSignature(ModuleOp module,
                           SmallVector<SmallVector<int64_t>> &inputShapes,
                           SmallVector<int64_t> &outputShape) {
    auto func = *module.getOps<func::FuncOp>().begin();
    for (Type type : func.getArgumentTypes())
      inputShapes.push_back(
          llvm::to_vector(cast<RankedTensorType>(type).getShape()));
    outputShape = llvm::to_vector(
        cast<RankedTensorType>(func.getResultTypes()[0]).getShape());
  }

  /// Uniform random inputs in [-1, 1), or, `awayFromZero`, in
  /// [-1.5, -0.5) and [0.5, 1.5).
  static std::vector<std::vector<float>>
  randomInputs(ArrayRef<SmallVector<int64_t>> shapes, std::mt19937 &rng,
               bool awayFromZero) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<std::vector<float>> inputs;
    for (const SmallVector<int64_t> &shape : shapes) {
      int64_t size = 1;
      for (int64_t d : shape)
        size *= d;
      inputs.emplace_back(size);
      for (float &v : inputs.back())
        v = awayFromZero ? dist(rng) + (dist(rng) > 0 ? 0.5f : -0.5f)
                         : dist(rng);
    }
    return inputs;
  }

  /// Whether every element of `actual` is within 1e-5 (relative, at least
  /// absolute) of `expected`.
  static ::testing::AssertionResult
  allClose(const std::vector<float> &actual, const std::vector<float> &expected,
           const std::string &what) {
    if (actual.size() != expected.size())
      return ::testing::AssertionFailure()
             << what << ": " << actual.size() << " elements, expected "
             << expected.size();
    for (size_t i = 0; i < actual.size(); ++i) {
      float tolerance = 1e-5f * std::max(1.0f, std::fabs(expected[i]));
      if (!(std::fabs(actual[i] - expected[i]) <= tolerance))
        return ::testing::AssertionFailure()
               << "element " << i << " of " << what << ": " << actual[i]
               << ", expected " << expected[i];
    }
    return ::testing::AssertionSuccess();
  }

  MLIRContext context;
};

class CpuEquivalenceTest : public ::testing::TestWithParam<CaseParam>,
                           protected CpuRunner {
protected:
  static void SetUpTestSuite() { initializeTarget(); }

  /// Draws a valid random schedule of the kind (a pipelined one, with
  /// `stages` from 2 to 4, when `pipelined`; with padded rows of its
  /// promoted shared tiles, half of them pipelined over 2 stages, when
  /// `padded`), materializes it up to GPU mapping and compares its CPU run
  /// with the unscheduled op.
  void checkRandomSchedule(bool pipelined, bool padded = false);
};

TEST_P(CpuEquivalenceTest, RandomScheduleMatchesTheUnscheduledOp) {
  checkRandomSchedule(/*pipelined=*/false);
}

/// Software-pipelined staging loops (`stages` > 1): multi-buffered shared
/// tiles, loads issued `stages - 1` steps ahead, prologue and epilogue.
TEST_P(CpuEquivalenceTest, PipelinedScheduleMatchesTheUnscheduledOp) {
  checkRandomSchedule(/*pipelined=*/true);
}

void CpuEquivalenceTest::checkRandomSchedule(bool pipelined, bool padded) {
  const OpKind &kind = std::get<0>(GetParam());
  int scheduleIndex = std::get<1>(GetParam());
  // Inputs depend on the kind only; the schedule on the kind and index.
  std::mt19937 inputRng(std::hash<std::string>()(kind.name));
  std::mt19937 rng(std::hash<std::string>()(kind.name) + 7919 * scheduleIndex);

  OwningOpRef<ModuleOp> reference = parse(kind.source);
  ASSERT_TRUE(reference);
  SmallVector<SmallVector<int64_t>> inputShapes;
  SmallVector<int64_t> outputShape;
  getSignature(*reference, inputShapes, outputShape);

  // Random inputs, never zeros.
  std::vector<std::vector<float>> inputs =
      randomInputs(inputShapes, inputRng, /*awayFromZero=*/true);

  // The unscheduled op's result, computed once per kind.
  static llvm::StringMap<std::vector<float>> references;
  if (!references.count(kind.name)) {
    reference->walk(
        [](linalg::LinalgOp op) { op->removeAttr("test.target"); });
    ASSERT_TRUE(succeeded(lowerToLLVM(*reference, /*bufferize=*/true)));
    std::vector<float> result;
    ASSERT_TRUE(succeeded(
        run(*reference, inputs, inputShapes, outputShape, result)));
    references[kind.name] = std::move(result);
  }
  const std::vector<float> &expected = references[kind.name];

  for (int attempt = 0; attempt < 5000; ++attempt) {
    OwningOpRef<ModuleOp> module = parse(kind.source);
    // The op marked `test.target`, or the only linalg op.
    linalg::LinalgOp target;
    int numOps = 0;
    module->walk([&](linalg::LinalgOp op) {
      ++numOps;
      if (op->hasAttr("test.target") || !target)
        target = op;
    });
    ASSERT_TRUE(numOps == 1 || target->hasAttr("test.target"));
    target->removeAttr("test.target");
    LoopNest nest = *LoopNest::get(target);

    bool injective = target.getNumReductionLoops() == 0;
    SketchKind sketchKind = injective ? SketchKind::TwoLevelInjective
                            : kind.crossThread
                                ? SketchKind::CrossThreadReduction
                                : SketchKind::MultiLevelTiling;
    bool reuse = sketchKind == SketchKind::MultiLevelTiling &&
                 target.getNumDpsInputs() >= 2;
    SmallVector<int64_t> inlinable =
        kind.inlineProducers ? getInlinableInputs(target)
                             : SmallVector<int64_t>();
    if (kind.inlineProducers)
      ASSERT_FALSE(inlinable.empty()) << kind.name;
    if (pipelined && !reuse)
      GTEST_SKIP() << kind.name << " stages no operand in shared memory "
                   << "(not a multi-level op with two inputs): nothing to "
                      "pipeline";
    if (padded && (!reuse || inlinable.size() ==
                                 static_cast<size_t>(target.getNumDpsInputs())))
      GTEST_SKIP() << kind.name << " promotes no operand to shared memory: "
                   << "nothing to pad";
    SmallVector<int64_t> shared;
    if (reuse && (pipelined || rng() % 4 != 0 || !inlinable.empty()))
      for (int64_t i = 0, e = target.getNumDpsInputs(); i < e; ++i)
        if (rng() % 3 != 0 || llvm::is_contained(inlinable, i))
          shared.push_back(i);
    auto sketch = SketchAttr::get(
        &context, sketchKind, SketchAttr::getDefaultStructure(sketchKind),
        shared, /*registerAccumulator=*/reuse, kind.fusedConsumers, inlinable);
    SmallVector<SmallVector<int64_t>> tiles;
    // Injective ops draw boundary blocks half the time: any threads per
    // block along a loop, ceil(extent / threads) blocks.
    bool boundaryBlocks = injective && rng() % 2 == 0;
    for (unsigned l = 0; l < nest.size(); ++l) {
      if (boundaryBlocks) {
        int64_t threads = 1 + rng() % std::min<int64_t>(nest.extents[l], 64);
        tiles.push_back(
            {llvm::divideCeilSigned(nest.extents[l], threads), threads});
        continue;
      }
      tiles.push_back(randomSplit(nest.extents[l],
                                  nest.isReduction[l]
                                      ? sketch.getNumReductionLevels()
                                      : sketch.getNumSpaceLevels(),
                                  rng));
    }
    const int64_t unrollOptions[] = {0, 16, 64, 512, 1024};
    SmallVector<int64_t> vector;
    for (size_t i = 0; i < shared.size(); ++i)
      vector.push_back(int64_t(1) << (rng() % 3));
    auto config =
        ConfigAttr::get(&context, tiles, unrollOptions[rng() % 5], vector);
    if (pipelined) {
      // One staging loop of at least two steps, pipelined over 2 to 4 (at
      // most its steps) stages.
      SmallVector<unsigned> stagingLoops =
          getMultiStepStagingLoops(tiles, nest);
      if (shared.empty() || stagingLoops.size() != 1)
        continue;
      int64_t most = std::min<int64_t>(kMaxPipelineStages,
                                       tiles[stagingLoops.front()].front());
      config = config.withStages(2 + rng() % (most - 1));
    }
    if (padded) {
      // One or two vectors of padding per promoted tile, at least one
      // tile padded; half of the schedules pipelined over two stages.
      SmallVector<int64_t> pad;
      for (auto [index, operand] : llvm::enumerate(shared))
        pad.push_back(llvm::is_contained(inlinable, operand)
                          ? 0
                          : vector[index] * (rng() % 3));
      if (llvm::all_of(pad, [](int64_t p) { return p == 0; }))
        continue;
      config = config.withPad(pad);
      SmallVector<unsigned> stagingLoops =
          getMultiStepStagingLoops(tiles, nest);
      if (rng() % 2 == 0 && stagingLoops.size() == 1 &&
          tiles[stagingLoops.front()].front() >= 2)
        config = config.withStages(2);
    }
    {
      ScopedDiagnosticHandler silence(&context,
                                      [](Diagnostic &) { return success(); });
      if (failed(verifySchedule(target, sketch, config,
                                [&] { return target->emitError(); })))
        continue;
    }
    target->setAttr(TesselDialect::kSketchAttrName, sketch);
    target->setAttr(TesselDialect::kConfigAttrName, config);
    std::string description;
    llvm::raw_string_ostream os(description);
    os << sketch << " " << config;

    PassManager pm(&context);
    TesselMaterializeOptions materialize;
    materialize.stopBeforeGpuMapping = true;
    pm.addPass(createTesselMaterialize(materialize));
    ASSERT_TRUE(succeeded(pm.run(*module))) << description;
    ASSERT_TRUE(succeeded(lowerToLLVM(*module, /*bufferize=*/false)))
        << description;
    std::vector<float> actual;
    ASSERT_TRUE(succeeded(
        run(*module, inputs, inputShapes, outputShape, actual)))
        << description;
    ASSERT_TRUE(allClose(actual, expected, kind.name)) << description;
    return;
  }
  FAIL() << "could not draw a valid schedule for " << kind.name;
}

/// Padded shared tiles (a config's `pad`): the op and the cooperative copy
/// see each promoted tile through a subview whose row pitch is longer than
/// its rows. Fewer schedules per kind than the suites above.
class PaddedCpuEquivalenceTest : public CpuEquivalenceTest {};

TEST_P(PaddedCpuEquivalenceTest, PaddedScheduleMatchesTheUnscheduledOp) {
  checkRandomSchedule(/*pipelined=*/false, /*padded=*/true);
}

INSTANTIATE_TEST_SUITE_P(AllOpKinds, PaddedCpuEquivalenceTest,
                         ::testing::Combine(::testing::ValuesIn(kOpKinds),
                                            ::testing::Range(0, 6)),
                         [](const ::testing::TestParamInfo<CaseParam> &info) {
                           return std::string(std::get<0>(info.param).name) +
                                  "_schedule" +
                                  std::to_string(std::get<1>(info.param));
                         });

INSTANTIATE_TEST_SUITE_P(
    AllOpKinds, CpuEquivalenceTest,
    ::testing::Combine(::testing::ValuesIn(kOpKinds),
                       ::testing::Range(0, kSchedulesPerKind)),
    [](const ::testing::TestParamInfo<CaseParam> &info) {
      return std::string(std::get<0>(info.param).name) + "_schedule" +
             std::to_string(std::get<1>(info.param));
    });


/// tensor_core schedules up to GPU mapping: warp foralls (run one warp
/// after the other on the CPU), mma steps and mma tiles of 16x8x16. The
/// f32 inputs are rounded to f16 by unscheduled ops first; a batch matmul
/// and a matmul reading B transposed cover the other layouts.
class TensorCoreCpuTest : public ::testing::TestWithParam<int>,
                          protected CpuRunner {
protected:
  static void SetUpTestSuite() { initializeTarget(); }

  /// A source's random inputs (seeded by `seed`) and the output of the
  /// source run unscheduled.
  struct Reference {
    SmallVector<SmallVector<int64_t>> inputShapes;
    SmallVector<int64_t> outputShape;
    std::vector<std::vector<float>> inputs;
    std::vector<float> output;
  };
  void runReference(StringRef source, unsigned seed, Reference &reference) {
    std::mt19937 inputRng(seed);
    OwningOpRef<ModuleOp> module = parse(source);
    ASSERT_TRUE(module);
    getSignature(*module, reference.inputShapes, reference.outputShape);
    reference.inputs =
        randomInputs(reference.inputShapes, inputRng, /*awayFromZero=*/true);
    module->walk([](linalg::LinalgOp op) { op->removeAttr("test.target"); });
    ASSERT_TRUE(succeeded(lowerToLLVM(*module, /*bufferize=*/true)));
    ASSERT_TRUE(succeeded(run(*module, reference.inputs, reference.inputShapes,
                              reference.outputShape, reference.output)));
  }

  /// Gives `target` of `module` a random tensor_core schedule (random levels
  /// above the fixed instruction level, unroll and vector widths),
  /// materializes it up to GPU mapping, runs it and compares it with
  /// `reference`.
  void checkRandomTensorCoreSchedule(ModuleOp module, linalg::LinalgOp target,
                                     std::mt19937 &rng,
                                     const Reference &reference,
                                     bool pipelined = false,
                                     bool padded = false) {
    ASSERT_EQ(getTensorCoreBlocker(target), "");
    LoopNest nest = *LoopNest::get(target);
    auto sketch = SketchAttr::get(
        &context, SketchKind::TensorCore,
        SketchAttr::getDefaultStructure(SketchKind::TensorCore), {0, 1},
        /*registerAccumulator=*/false, /*fusedConsumers=*/0);
    SmallVector<int64_t> mma = getMmaLevelExtents(target);
    SmallVector<SmallVector<int64_t>> tiles;
    for (unsigned l = 0; l < nest.size(); ++l) {
      unsigned levels = nest.isReduction[l] ? sketch.getNumReductionLevels()
                                            : sketch.getNumSpaceLevels();
      tiles.push_back(randomSplit(nest.extents[l] / mma[l], levels - 1, rng));
      tiles.back().push_back(mma[l]);
    }
    const int64_t unrollOptions[] = {0, 16, 64, 512, 1024};
    SmallVector<int64_t> vector = {int64_t(1) << (rng() % 4),
                                   int64_t(1) << (rng() % 4)};
    if (pipelined) {
      // The staging loop (the outermost reduction level) gets at least two
      // steps, to be pipelined over 2 to 4 (at most its steps) stages: a
      // one-step staging loop takes the mma steps' trips.
      for (unsigned l = 0; l < nest.size(); ++l) {
        if (!nest.isReduction[l] || tiles[l].front() > 1)
          continue;
        tiles[l].front() = tiles[l][1];
        tiles[l][1] = 1;
      }
    }
    auto config =
        ConfigAttr::get(&context, tiles, unrollOptions[rng() % 5], vector);
    int64_t stages = 1;
    if (pipelined) {
      SmallVector<unsigned> stagingLoops =
          getMultiStepStagingLoops(tiles, nest);
      ASSERT_EQ(stagingLoops.size(), 1u);
      int64_t most = std::min<int64_t>(kMaxPipelineStages,
                                       tiles[stagingLoops.front()].front());
      stages = 2 + rng() % (most - 1);
      config = config.withStages(stages);
    }
    {
      ScopedDiagnosticHandler silence(&context,
                                      [](Diagnostic &) { return success(); });
      // A vector width that does not divide a shared tile's row: use 1.
      if (failed(verifySchedule(target, sketch, config,
                                [&] { return target->emitError(); })))
        config = ConfigAttr::get(&context, tiles, config.getUnroll(), {1, 1},
                                 stages);
    }
    if (padded) {
      // Each tile's rows one or two vectors longer (ldmatrix's rows skewed
      // across the banks), drawn after everything else.
      SmallVector<int64_t> pad;
      for (int64_t width : config.getVector())
        pad.push_back(width * (1 + rng() % 2));
      config = config.withPad(pad);
    }
    std::string description;
    llvm::raw_string_ostream os(description);
    os << sketch << " " << config;
    ASSERT_TRUE(succeeded(verifySchedule(
        target, sketch, config, [&] { return target->emitError(); })))
        << description;
    target->setAttr(TesselDialect::kSketchAttrName, sketch);
    target->setAttr(TesselDialect::kConfigAttrName, config);
    PassManager pm(&context);
    TesselMaterializeOptions materialize;
    materialize.stopBeforeGpuMapping = true;
    pm.addPass(createTesselMaterialize(materialize));
    ASSERT_TRUE(succeeded(pm.run(module))) << description;
    bool warps = false;
    module->walk([&](scf::ForallOp forall) {
      if (auto mapping = forall.getMapping())
        warps |= isa<gpu::GPUWarpMappingAttr>((*mapping)[0]);
    });
    int64_t numWarps = 1;
    for (unsigned l = 0; l < nest.size(); ++l)
      if (!nest.isReduction[l])
        numWarps *= tiles[l][1];
    EXPECT_EQ(warps, numWarps > 1) << description;
    ASSERT_TRUE(succeeded(lowerToLLVM(module, /*bufferize=*/false)))
        << description;
    std::vector<float> actual;
    ASSERT_TRUE(succeeded(run(module, reference.inputs, reference.inputShapes,
                              reference.outputShape, actual)))
        << description;
    ASSERT_TRUE(allClose(actual, reference.output, "tensor_core"))
        << description;
  }

  /// Checks a random schedule (pipelined or not, with padded shared tiles
  /// or not) of each tensor-core case of getTensorCoreSources, drawn with a
  /// generator seeded by `seedFactor` times the test's parameter plus the
  /// case's index.
  void checkTensorCoreSources(unsigned seedFactor, bool pipelined,
                              bool padded = false);

  /// The op of `module` marked `test.target`, unmarked.
  static linalg::LinalgOp takeTarget(ModuleOp module) {
    linalg::LinalgOp target;
    module->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr("test.target"))
        target = op;
    });
    if (target)
      target->removeAttr("test.target");
    return target;
  }
};

/// `%<name>`: the f32 argument `%<name>32` of `shape` rounded to `half`
/// (f16 or bf16) by an elementwise linalg.generic.
std::string roundToHalf(StringRef name, ArrayRef<int64_t> shape,
                        StringRef half = "f16") {
  std::string dims, type = "tensor<";
  SmallVector<std::string> iterators;
  for (size_t d = 0; d < shape.size(); ++d) {
    dims += (d ? ", d" : "d") + std::to_string(d);
    type += std::to_string(shape[d]) + "x";
    iterators.push_back("\"parallel\"");
  }
  std::string f32 = type + "f32>", rounded = type + half.str() + ">";
  std::string map = "affine_map<(" + dims + ") -> (" + dims + ")>";
  return llvm::formatv(
      "  %{0}_init = tensor.empty() : {2}\n"
      "  %{0} = linalg.generic {{indexing_maps = [{3}, {3}], iterator_types = "
      "[{4}]} ins(%{0}32 : {1}) outs(%{0}_init : {2}) {{\n"
      "  ^bb0(%x: f32, %o: {5}):\n"
      "    %t = arith.truncf %x : f32 to {5}\n"
      "    linalg.yield %t : {5}\n"
      "  } -> {2}\n",
      name, f32, rounded, map, llvm::join(iterators, ", "), half)
      .str();
}

/// The tensor_core cases: f32 arguments rounded to f16, then the op; an f32
/// (TF32) matmul; and a bf16 matmul reading B transposed.
std::vector<std::string> getTensorCoreSources() {
  return {
      R"mlir(func.func @f(%a32: tensor<64x48xf32>, %b32: tensor<48x32xf32>) -> tensor<64x32xf32> {
)mlir" + roundToHalf("a", {64, 48}) +
          roundToHalf("b", {48, 32}) + R"mlir(  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<64x48xf16>, tensor<48x32xf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
})mlir",
      R"mlir(func.func @f(%a32: tensor<3x32x32xf32>, %b32: tensor<3x32x16xf32>, %c: tensor<3x32x16xf32>) -> tensor<3x32x16xf32> {
)mlir" + roundToHalf("a", {3, 32, 32}) +
          roundToHalf("b", {3, 32, 16}) + R"mlir(  %0 = linalg.batch_matmul {test.target} ins(%a, %b : tensor<3x32x32xf16>, tensor<3x32x16xf16>) outs(%c : tensor<3x32x16xf32>) -> tensor<3x32x16xf32>
  return %0 : tensor<3x32x16xf32>
})mlir",
      R"mlir(func.func @f(%a32: tensor<32x32xf32>, %b32: tensor<16x32xf32>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
)mlir" + roundToHalf("a", {32, 32}) +
          roundToHalf("b", {16, 32}) + R"mlir(  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {test.target} ins(%a, %b : tensor<32x32xf16>, tensor<16x32xf16>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
})mlir",
      // TF32 (the CPU computes in f32: the tiling is what is checked).
      R"mlir(func.func @f(%a: tensor<48x40xf32>, %b: tensor<40x32xf32>) -> tensor<48x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x32xf32>) -> tensor<48x32xf32>
  %0 = linalg.matmul {test.target} ins(%a, %b : tensor<48x40xf32>, tensor<40x32xf32>) outs(%c : tensor<48x32xf32>) -> tensor<48x32xf32>
  return %0 : tensor<48x32xf32>
})mlir",
      R"mlir(func.func @f(%a32: tensor<48x64xf32>, %b32: tensor<32x64xf32>) -> tensor<48x32xf32> {
)mlir" + roundToHalf("a", {48, 64}, "bf16") +
          roundToHalf("b", {32, 64}, "bf16") +
          R"mlir(  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x32xf32>) -> tensor<48x32xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {test.target} ins(%a, %b : tensor<48x64xbf16>, tensor<32x64xbf16>) outs(%c : tensor<48x32xf32>) -> tensor<48x32xf32>
  return %0 : tensor<48x32xf32>
})mlir",
  };
}

void TensorCoreCpuTest::checkTensorCoreSources(unsigned seedFactor,
                                               bool pipelined, bool padded) {
  for (auto [sourceIndex, source] : llvm::enumerate(getTensorCoreSources())) {
    Reference reference;
    runReference(source, 11 + sourceIndex, reference);
    if (HasFatalFailure())
      return;
    std::mt19937 rng(seedFactor * GetParam() + sourceIndex);
    OwningOpRef<ModuleOp> module = parse(source);
    linalg::LinalgOp target = takeTarget(*module);
    ASSERT_TRUE(target);
    checkRandomTensorCoreSchedule(*module, target, rng, reference, pipelined,
                                  padded);
  }
}

TEST_P(TensorCoreCpuTest, TensorCoreScheduleMatchesTheUnscheduledOp) {
  checkTensorCoreSources(/*seedFactor=*/101, /*pipelined=*/false);
}

/// Padded shared tiles on tensor cores (a config's `pad`): ldmatrix reads
/// rows whose pitch is longer than the rows.
TEST_P(TensorCoreCpuTest, PaddedTensorCoreScheduleMatchesTheUnscheduledOp) {
  checkTensorCoreSources(/*seedFactor=*/103, /*pipelined=*/false,
                         /*padded=*/true);
}

/// Pipelined tensor-core staging (issue 43 item 1): the shared tiles
/// multi-buffered, the loads issued `stages - 1` steps ahead.
TEST_P(TensorCoreCpuTest, PipelinedTensorCoreScheduleMatchesTheUnscheduledOp) {
  checkTensorCoreSources(/*seedFactor=*/211, /*pipelined=*/true);
}

INSTANTIATE_TEST_SUITE_P(RandomSchedules, TensorCoreCpuTest,
                         ::testing::Range(0, 10));

/// Convolutions rewritten as im2col and a matmul (Im2Col.h) compute what
/// they did: the rewritten module unscheduled, and with random tensor_core
/// schedules of its matmul (TF32 for f32 inputs; the CPU computes in f32).
class Im2ColCpuTest : public TensorCoreCpuTest {};

std::vector<std::string> getIm2ColSources() {
  return {
      // NCHW, batch 1, stride 2, a fill init: M = F, N = OH * OW.
      R"mlir(func.func @f(%x: tensor<1x8x17x17xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x17x17xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
})mlir",
      // NHWC, batch 2, dilation 2, accumulating into an argument.
      R"mlir(func.func @f(%x: tensor<2x12x12x8xf32>, %w: tensor<3x3x8x16xf32>, %y: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {test.target, dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x12x12x8xf32>, tensor<3x3x8x16xf32>) outs(%y : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  return %0 : tensor<2x8x8x16xf32>
})mlir",
      // A 1x1 window of stride 1 (NHWC): the patches are the input.
      R"mlir(func.func @f(%x: tensor<2x8x8x16xf32>, %w: tensor<1x1x16x24xf32>, %y: tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x8x16xf32>, tensor<1x1x16x24xf32>) outs(%y : tensor<2x8x8x24xf32>) -> tensor<2x8x8x24xf32>
  return %0 : tensor<2x8x8x24xf32>
})mlir",
      // f16 inputs into f32 (f16 tensor cores).
      R"mlir(func.func @f(%img32: tensor<1x16x10x10xf32>, %flt32: tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32> {
)mlir" + roundToHalf("img", {1, 16, 10, 10}) +
          roundToHalf("flt", {16, 16, 3, 3}) + R"mlir(  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {test.target, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x16x10x10xf16>, tensor<16x16x3x3xf16>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
})mlir",
  };
}

TEST_P(Im2ColCpuTest, Im2ColMatmulMatchesTheConvolution) {
  for (auto [sourceIndex, source] : llvm::enumerate(getIm2ColSources())) {
    Reference reference;
    runReference(source, 23 + sourceIndex, reference);
    if (HasFatalFailure())
      return;
    std::mt19937 rng(131 * GetParam() + sourceIndex);
    auto rewritten = [&]() -> std::pair<OwningOpRef<ModuleOp>, linalg::MatmulOp> {
      OwningOpRef<ModuleOp> module = parse(source);
      linalg::LinalgOp conv = takeTarget(*module);
      EXPECT_EQ(getIm2ColBlocker(conv), "");
      IRRewriter rewriter(&context);
      FailureOr<linalg::MatmulOp> matmul =
          rewriteConvAsIm2ColMatmul(rewriter, conv);
      EXPECT_TRUE(succeeded(matmul));
      return {std::move(module), succeeded(matmul) ? *matmul : nullptr};
    };
    // The rewrite alone (once per source: it does not depend on the
    // schedule seed).
    if (GetParam() == 0) {
      auto [module, matmul] = rewritten();
      ASSERT_TRUE(matmul);
      ASSERT_TRUE(succeeded(lowerToLLVM(*module, /*bufferize=*/true)));
      std::vector<float> actual;
      ASSERT_TRUE(succeeded(run(*module, reference.inputs,
                                reference.inputShapes, reference.outputShape,
                                actual)));
      ASSERT_TRUE(allClose(actual, reference.output, "im2col")) << sourceIndex;
    }
    // A random tensor_core schedule of the matmul.
    auto [module, matmul] = rewritten();
    ASSERT_TRUE(matmul);
    checkRandomTensorCoreSchedule(*module, matmul, rng, reference);
  }
}

INSTANTIATE_TEST_SUITE_P(RandomSchedules, Im2ColCpuTest,
                         ::testing::Range(0, 6));

/// A chain of ops as torch-mlir writes it (unfused, unit broadcasts as
/// `0`), and the number of kernels it must become.
struct FusedChain {
  const char *name;
  const char *source;
  int kernels;
  /// A type the fused module must hold (a padded extent), if any.
  const char *fusedType = nullptr;
  /// Split-K factor applied to every contraction first (--tessel-split-k),
  /// or 0.
  int64_t splitK = 0;
};

const FusedChain kFusedChains[] = {
    // GELU in its sigmoid form (math.erf has no CPU lowering here).
    {"matmul_bias_gelu", R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d2)>
func.func @f(%a: tensor<1x32x48xf32>, %w: tensor<1x48x64xf32>, %bias: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant -1.702 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %m = linalg.batch_matmul ins(%a, %w : tensor<1x32x48xf32>, tensor<1x48x64xf32>) outs(%init : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %biased = linalg.generic {indexing_maps = [#b, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %bias : tensor<1x32x64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x32x64xf32>
  %g = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%biased : tensor<1x32x64xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %k : f32
    %ex = math.exp %t : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %x, %d : f32
    linalg.yield %r : f32
  } -> tensor<1x32x64xf32>
  return %g : tensor<1x32x64xf32>
})mlir",
     1},
    // ResNet's tail of a bottleneck: conv, bias (folded BatchNorm), the
    // residual add and ReLU, reading through torch-mlir's unit broadcasts.
    {"conv_bias_add_relu", R"mlir(
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @f(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>, %res: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %bn = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x16x8x8xf32>, tensor<16xf32>) outs(%c : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %sum = linalg.generic {indexing_maps = [#b, #b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn, %res : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.cmpf ugt, %a, %zero : f32
    %m = arith.select %p, %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
})mlir",
     1},
    // BERT's attention softmax (keepdim reductions): max, then exp-sum (the
    // subtraction and exponential recomputed in it) with the normalization
    // as its row epilogue.
    {"softmax", R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @f(%x: tensor<4x32x64xf32>) -> tensor<4x32x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x32x1xf32>
  %e = tensor.empty() : tensor<4x32x64xf32>
  %i1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x32x1xf32>) -> tensor<4x32x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<4x32x64xf32>) outs(%i1 : tensor<4x32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4x32x1xf32>
  %sub = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<4x32x64xf32>, tensor<4x32x1xf32>) outs(%e : tensor<4x32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x32x64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x32x64xf32>) outs(%e : tensor<4x32x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x32x64xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32x1xf32>) -> tensor<4x32x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x32x64xf32>) outs(%i2 : tensor<4x32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x32x1xf32>
  %div = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x32x64xf32>, tensor<4x32x1xf32>) outs(%e : tensor<4x32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x32x64xf32>
  return %div : tensor<4x32x64xf32>
})mlir",
     2},
    // BERT's LayerNorm after a residual add: mean, then variance (the add
    // and the centring recomputed in it) with the normalization as its row
    // epilogue.
    {"residual_layernorm", R"mlir(
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#bred = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d2)>
func.func @f(%x: tensor<1x32x64xf32>, %res: tensor<1x32x64xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %e1 = tensor.empty() : tensor<1x32x1xf32>
  %add = linalg.generic {indexing_maps = [#b, #b, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %res : tensor<1x32x64xf32>, tensor<1x32x64xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x32x64xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%add : tensor<1x32x64xf32>) outs(%i1 : tensor<1x32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x32x1xf32>
  %mean = linalg.generic {indexing_maps = [#b, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sum : tensor<1x32x1xf32>) outs(%e1 : tensor<1x32x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x32x1xf32>
  %c = linalg.generic {indexing_maps = [#b, #bred, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%add, %mean : tensor<1x32x64xf32>, tensor<1x32x1xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x32x64xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x32x1xf32>) -> tensor<1x32x1xf32>
  %sq = linalg.generic {indexing_maps = [#b, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c : tensor<1x32x64xf32>) outs(%i2 : tensor<1x32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x32x1xf32>
  %y = linalg.generic {indexing_maps = [#b, #bred, #row, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %sq, %gamma, %beta : tensor<1x32x64xf32>, tensor<1x32x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<1x32x64xf32>) {
  ^bb0(%a: f32, %v: f32, %g: f32, %bb: f32, %o: f32):
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %a, %r : f32
    %u = arith.mulf %t, %g : f32
    %w = arith.addf %u, %bb : f32
    linalg.yield %w : f32
  } -> tensor<1x32x64xf32>
  return %y : tensor<1x32x64xf32>
})mlir",
     2},
    // A prime M (1031, above 1024): fusion pads the matmul's M to 1152
    // with zeros (the pad inlined into the staged load of A); the bias and
    // ReLU read the slice of the padded result, as a kernel of their own
    // that covers M with boundary blocks.
    {"prime_matmul_bias_relu", R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @f(%a: tensor<1031x24xf32>, %w: tensor<24x40xf32>, %bias: tensor<40xf32>) -> tensor<1031x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1031x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1031x40xf32>) -> tensor<1031x40xf32>
  %m = linalg.matmul ins(%a, %w : tensor<1031x24xf32>, tensor<24x40xf32>) outs(%init : tensor<1031x40xf32>) -> tensor<1031x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<1031x40xf32>, tensor<40xf32>) outs(%e : tensor<1031x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.maximumf %s, %zero : f32
    linalg.yield %p : f32
  } -> tensor<1031x40xf32>
  return %r : tensor<1031x40xf32>
})mlir",
     2, "tensor<1152x40xf32>"},
    // A batch matmul with a prime N (1031): padded to 1152 like the matmul
    // above; the function returns the slice of the padded result.
    {"prime_batch_matmul", R"mlir(
func.func @f(%a: tensor<2x16x24xf32>, %b: tensor<2x24x1031xf32>) -> tensor<2x16x1031xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x1031xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x1031xf32>) -> tensor<2x16x1031xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x16x24xf32>, tensor<2x24x1031xf32>) outs(%init : tensor<2x16x1031xf32>) -> tensor<2x16x1031xf32>
  return %m : tensor<2x16x1031xf32>
})mlir",
     1, "tensor<2x24x1152xf32>"},
    // Primes up to 1024 (M = 131, K = 139): no divisor from 16 to 128, so
    // both are padded to a multiple of 32 (160) with zeros; N = 40 is not.
    {"primes_below_1024_matmul", R"mlir(
func.func @f(%a: tensor<131x139xf32>, %b: tensor<139x40xf32>) -> tensor<131x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<131x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<131x40xf32>) -> tensor<131x40xf32>
  %m = linalg.matmul ins(%a, %b : tensor<131x139xf32>, tensor<139x40xf32>) outs(%init : tensor<131x40xf32>) -> tensor<131x40xf32>
  return %m : tensor<131x40xf32>
})mlir",
     1, "tensor<160x160xf32>"},
    // A contraction generic reading B transposed, with a prime K (1033): K
    // is padded with zeros on both inputs, which adds nothing to the sums.
    {"prime_k_transposed_contraction", R"mlir(
func.func @f(%a: tensor<8x1033xf32>, %b: tensor<12x1033xf32>) -> tensor<8x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x12xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x12xf32>) -> tensor<8x12xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x1033xf32>, tensor<12x1033xf32>) outs(%init : tensor<8x12xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x12xf32>
  return %m : tensor<8x12xf32>
})mlir",
     1, "tensor<12x1152xf32>"},
    // A sum of squares of all elements: the fusion gives the reduction to
    // a scalar a unit parallel loop (through linalg.reduce's generic form),
    // merges the square into it and collapses its two reduction loops into
    // one over a 768-element view (one thread reduces it, the fill in its
    // kernel).
    {"sum_of_squares_to_scalar", R"mlir(
func.func @f(%x: tensor<16x48xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x48xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x48xf32>) outs(%e : tensor<16x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.mulf %a, %a : f32
    linalg.yield %p : f32
  } -> tensor<16x48xf32>
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%sq : tensor<16x48xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %r = tensor.expand_shape %sum [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %r : tensor<1xf32>
})mlir",
     1, "tensor<768xf32>"},
    // A mean of all elements: the sum (1200 elements: its block's threads
    // split it, cross_thread_reduction, the fill in its kernel), then a
    // division on the 0-d result (a kernel of its own after
    // --tessel-expand-scalar-ops).
    {"mean_to_scalar", R"mlir(
func.func @f(%x: tensor<4x300xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1200.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x300xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%sum : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<f32>
  %r = tensor.expand_shape %mean [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %r : tensor<1xf32>
})mlir",
     2},
    // Split-K (--tessel-split-k): BERT's QKV shape scaled down, K split 4
    // ways into a partial kernel and a combining kernel.
    {"split_k_matmul", R"mlir(
func.func @f(%a: tensor<32x192xf32>, %b: tensor<192x96xf32>) -> tensor<32x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x96xf32>) -> tensor<32x96xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x192xf32>, tensor<192x96xf32>) outs(%init : tensor<32x96xf32>) -> tensor<32x96xf32>
  return %m : tensor<32x96xf32>
})mlir",
     2, nullptr, /*splitK=*/4},
    // The epilogue (bias, ReLU) fuses into the combining kernel.
    {"split_k_matmul_bias_relu", R"mlir(
func.func @f(%a: tensor<16x128xf32>, %b: tensor<128x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x128xf32>, tensor<128x64xf32>) outs(%init : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
})mlir",
     2, nullptr, /*splitK=*/2},
    {"split_k_batch_matmul", R"mlir(
func.func @f(%a: tensor<2x16x96xf32>, %b: tensor<2x96x32xf32>) -> tensor<2x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x16x96xf32>, tensor<2x96x32xf32>) outs(%init : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %m : tensor<2x16x32xf32>
})mlir",
     2, nullptr, /*splitK=*/3},

};

class FusedChainTest : public ::testing::TestWithParam<FusedChain>,
                       protected CpuRunner {
protected:
  static void SetUpTestSuite() { initializeTarget(); }
};

/// Fused by `--tessel-fuse`, loop-less ops given a loop as
/// `--tessel-to-cuda` does, given default schedules (the kernel of each
/// anchor computes its fused group) and materialized up to the GPU
/// mapping, the chain computes what the unfused chain does, in the expected
/// number of kernels.
TEST_P(FusedChainTest, FusedKernelsMatchTheUnfusedChain) {
  const FusedChain &chain = GetParam();
  std::mt19937 inputRng(std::hash<std::string>()(chain.name));
  OwningOpRef<ModuleOp> reference = parse(chain.source);
  ASSERT_TRUE(reference);
  SmallVector<SmallVector<int64_t>> inputShapes;
  SmallVector<int64_t> outputShape;
  getSignature(*reference, inputShapes, outputShape);
  std::vector<std::vector<float>> inputs =
      randomInputs(inputShapes, inputRng, /*awayFromZero=*/false);
  ASSERT_TRUE(succeeded(lowerToLLVM(*reference, /*bufferize=*/true)));
  std::vector<float> expected;
  ASSERT_TRUE(succeeded(
      run(*reference, inputs, inputShapes, outputShape, expected)));

  OwningOpRef<ModuleOp> module = parse(chain.source);
  if (chain.splitK > 0) {
    PassManager split(&context);
    TesselSplitKOptions options;
    options.factor = chain.splitK;
    split.addPass(createTesselSplitK(options));
    ASSERT_TRUE(succeeded(split.run(*module)));
  }
  ASSERT_TRUE(succeeded(applyTesselFusion(*module)));
  // Fusion is idempotent: tasks, records and kernels see the same ops.
  std::string once;
  llvm::raw_string_ostream(once) << *module;
  ASSERT_TRUE(succeeded(applyTesselFusion(*module)));
  std::string twice;
  llvm::raw_string_ostream(twice) << *module;
  EXPECT_EQ(once, twice);

  PassManager defaults(&context);
  defaults.addPass(createTesselExpandScalarOps());
  defaults.addPass(createTesselDefaultConfig());
  ASSERT_TRUE(succeeded(defaults.run(*module)));
  int kernels = 0;
  module->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(TesselDialect::kSketchAttrName))
      ++kernels;
  });
  EXPECT_EQ(kernels, chain.kernels) << once;
  if (chain.fusedType)
    EXPECT_TRUE(StringRef(once).contains(chain.fusedType)) << once;

  PassManager pm(&context);
  TesselMaterializeOptions materialize;
  materialize.stopBeforeGpuMapping = true;
  pm.addPass(createTesselMaterialize(materialize));
  ASSERT_TRUE(succeeded(pm.run(*module))) << once;
  ASSERT_TRUE(succeeded(lowerToLLVM(*module, /*bufferize=*/false)));
  std::vector<float> actual;
  ASSERT_TRUE(
      succeeded(run(*module, inputs, inputShapes, outputShape, actual)));
  EXPECT_TRUE(allClose(actual, expected, chain.name));
}

INSTANTIATE_TEST_SUITE_P(
    Chains, FusedChainTest, ::testing::ValuesIn(kFusedChains),
    [](const ::testing::TestParamInfo<FusedChain> &info) {
      return std::string(info.param.name);
    });

} // namespace
